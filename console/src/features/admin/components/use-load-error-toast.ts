import { useEffect } from 'react';
import { toast } from 'sonner';

/** One message for every list that fails to load (spec §8), with the cause kept in the console. */
export function useLoadErrorToast(error: Error | null, what: string): void {
  useEffect(() => {
    if (!error) return;
    console.error(`Failed to load ${what}`, error);
    toast.error('Failed to load admin data');
  }, [error, what]);
}
