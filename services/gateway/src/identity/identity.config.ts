import { env, type ConfigOf } from '@updown/runtime';
import { PDF_INSPECTION_LIMITS_DEFAULT, type PdfInspectionLimits } from '@updown/accounts';

/**
 * The bounds of the PDF inspection queue (pdf-inspection-queue.ts), merged into the gateway's spec
 * (`config.ts`) so one `readEnv` call reports every bad variable. Nothing here reads `process.env`.
 */
export const identityConfigSpec = {
  IDENTITY_PDF_RUNNING_MAX: env.int(PDF_INSPECTION_LIMITS_DEFAULT.runningMax, { min: 1, max: 64 }),
  IDENTITY_PDF_WAITING_MAX: env.int(PDF_INSPECTION_LIMITS_DEFAULT.waitingMax, { min: 0, max: 1_000 }),
  IDENTITY_PDF_PER_ACCOUNT_MAX: env.int(PDF_INSPECTION_LIMITS_DEFAULT.perAccountMax, { min: 1, max: 20 }),
};

export type IdentityConfig = ConfigOf<typeof identityConfigSpec>;

export function pdfInspectionLimits(config: IdentityConfig): PdfInspectionLimits {
  return {
    runningMax: config.IDENTITY_PDF_RUNNING_MAX,
    waitingMax: config.IDENTITY_PDF_WAITING_MAX,
    perAccountMax: config.IDENTITY_PDF_PER_ACCOUNT_MAX,
  };
}
