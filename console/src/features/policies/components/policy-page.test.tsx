// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { POLICIES, POLICY_SLUGS, type PolicySlug } from '@updown/schemas/policies';
import { formatEffectiveDate, PolicyPage } from './policy-page';

afterEach(cleanup);

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

/** The policy page at `/<slug>`, reached from `/` so that Back has somewhere to go. */
function renderPolicy(slug: PolicySlug) {
  return render(
    <MemoryRouter initialEntries={['/', `/${slug}`]} initialIndex={1}>
      <Routes>
        <Route path="/" element={<p>landing</p>} />
        <Route path={`/${slug}`} element={<PolicyPage slug={slug} />} />
      </Routes>
      <Location />
    </MemoryRouter>,
  );
}

describe('PolicyPage', () => {
  it.each(POLICY_SLUGS)('renders %s: title, version, effective date and every numbered section', (slug) => {
    const policy = POLICIES[slug];
    renderPolicy(slug);

    const article = screen.getByRole('article', { name: policy.title });
    expect(within(article).getByRole('heading', { level: 1, name: policy.title })).toBeTruthy();
    const effective = article.querySelector('time');
    expect(effective?.getAttribute('dateTime')).toBe(policy.effective_date);
    expect(effective?.parentElement?.textContent).toBe(
      `Version ${policy.version} · Effective ${formatEffectiveDate(policy.effective_date)}`,
    );

    const headings = within(article)
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(policy.sections.map((s) => `${s.number}. ${s.heading}`));
    for (const section of policy.sections) {
      const region = screen.getByRole('region', { name: `${section.number}. ${section.heading}` });
      for (const block of section.blocks) {
        if (typeof block === 'string') {
          expect(within(region).getByText(block).tagName).toBe('P');
        } else {
          const items = within(within(region).getByText(block.list[0]!).closest('ul')!).getAllByRole(
            'listitem',
          );
          expect(items.map((item) => item.textContent)).toEqual(block.list);
        }
      }
    }
  });

  it('shows the summary under the title', () => {
    renderPolicy('bonus-policy');
    expect(screen.getByText(POLICIES['bonus-policy'].summary!)).toBeTruthy();
  });

  it("goes back to the previous page with '← Back'", async () => {
    renderPolicy('terms');
    expect(screen.getByTestId('location').textContent).toBe('/terms');
    await userEvent.click(screen.getByRole('button', { name: '← Back' }));
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(screen.getByText('landing')).toBeTruthy();
  });
});

describe('formatEffectiveDate', () => {
  it('writes the ISO day out in full, in any time zone', () => {
    expect(formatEffectiveDate('2026-12-01')).toBe('1 December 2026');
    expect(formatEffectiveDate('2027-01-31')).toBe('31 January 2027');
  });
});
