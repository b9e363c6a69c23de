// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { POLICIES, POLICY_SLUGS } from '@updown/schemas/policies';
import { renderWithProviders } from '../testing/render';
import { AppRoutes } from './routes';

afterEach(cleanup);

describe('policy routes', () => {
  it.each(POLICY_SLUGS)('serves /%s from the policy chunk with its Back control', async (slug) => {
    renderWithProviders(<AppRoutes />, { path: `/${slug}` });
    expect(await screen.findByRole('heading', { level: 1, name: POLICIES[slug].title })).toBeTruthy();
    expect(screen.getByRole('button', { name: '← Back' })).toBeTruthy();
  });
});
