import { Toaster } from 'sonner';

/** Toasts: 4 s, three at once, sonner's default 356 px width (spec §9). */
const TOAST_DURATION_MS = 4000;
const TOASTS_VISIBLE = 3;

export function AppToaster() {
  return (
    <Toaster
      theme="dark"
      position="top-right"
      duration={TOAST_DURATION_MS}
      visibleToasts={TOASTS_VISIBLE}
      richColors
    />
  );
}
