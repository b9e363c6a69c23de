import { Suspense, lazy } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { useSession } from '../lib/session/session-context';
import { SessionProvider } from '../lib/session/session-provider';
import { AppRoutes } from './routes';

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

const queryClient = createQueryClient();

/*
 * The toaster is loaded after the first render: the landing page shows no toast, and the pages
 * that do import sonner's `toast` themselves. A toast raised before the toaster mounts is not
 * lost: sonner hands the active toasts to a toaster when it subscribes.
 */
const AppToaster = lazy(() => import('./toaster').then((module) => ({ default: module.AppToaster })));

/*
 * The dispute notifications poll and toast while someone is signed in: a chunk of their own (with
 * sonner's toast), fetched after sign-in, so the landing page's download does not grow.
 */
const DisputeNotifications = lazy(() =>
  import('../features/receipts/components/dispute-notifications').then((module) => ({
    default: module.DisputeNotifications,
  })),
);

function SignedInNotifications() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <DisputeNotifications key={user.id} userId={user.id} />
    </Suspense>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <SignedInNotifications />
      </SessionProvider>
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </QueryClientProvider>
  );
}
