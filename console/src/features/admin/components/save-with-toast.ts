import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';

/**
 * An admin form's save: runs it, then says so in a toast and calls `onSaved`; a refusal is shown
 * with the server's `detail` (logged with `Failed to {action}`) and leaves the form as it was.
 */
export async function saveWithToast(
  action: string,
  success: string,
  save: () => Promise<unknown>,
  onSaved?: () => void,
): Promise<void> {
  try {
    await save();
    toast.success(success);
    onSaved?.();
  } catch (error) {
    console.error(`Failed to ${action}`, error);
    toast.error(errorDetail(error, `Failed to ${action}`));
  }
}
