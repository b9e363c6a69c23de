import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { Toaster } from 'sonner';
import { SessionProvider } from '../lib/session/session-provider';
import { AppRoutes } from './routes';

/** Toasts: 4 s, three at once, sonner's default 356 px width (spec §9). */
const TOAST_DURATION_MS = 4000;
const TOASTS_VISIBLE = 3;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

const queryClient = createQueryClient();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </SessionProvider>
      <Toaster
        theme="dark"
        position="top-right"
        duration={TOAST_DURATION_MS}
        visibleToasts={TOASTS_VISIBLE}
        richColors
      />
    </QueryClientProvider>
  );
}
