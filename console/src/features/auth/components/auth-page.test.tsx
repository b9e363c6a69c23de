// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { AuthPage } from './auth-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

async function fillRegistration() {
  const user = userEvent.setup();
  renderWithProviders(<AuthPage />, { path: '/auth' });
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
  expect(screen.getByText('Create Account', { selector: 'h1' })).toBeTruthy();
  expect(screen.getByText('Sign up to get started')).toBeTruthy();
  await user.type(screen.getByLabelText('Full Name'), 'Ann Lee');
  await user.type(screen.getByLabelText('Email Address'), 'ann@example.com');
  await user.type(screen.getByLabelText('Password'), 'a-long-password');
  return user;
}

describe('AuthPage', () => {
  it('starts in login mode', () => {
    renderWithProviders(<AuthPage />, { path: '/auth' });
    expect(screen.getByText('Welcome Back')).toBeTruthy();
    expect(screen.getByText('Login to start trading')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.getByText('Or continue with email')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('refuses to register without the 18+ confirmation', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = await fillRegistration();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(toast.error).toHaveBeenCalledWith('You must be 18+ years old to register');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses to register without accepting the terms', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = await fillRegistration();
    await user.click(screen.getByLabelText('I confirm that I am 18 years or older'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(toast.error).toHaveBeenCalledWith('You must accept the Terms & Conditions');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the Google failure toast when Google sign-in is not configured', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AuthPage />, { path: '/auth' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(toast.error).toHaveBeenCalledWith('Google login failed');
  });
});
