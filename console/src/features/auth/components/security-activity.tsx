import { SecurityEventList } from '../../../components/ui/security-event-list';
import { useSecurityActivity } from '../api/get-security-activity';

/**
 * What happened to the account lately, newest first: sign-ins with their address and device,
 * failed-sign-in bursts, two-factor and password changes, sessions ended, and a sign-in token used
 * twice (after which every session was ended). The owner is the first to notice a stranger here.
 */
export function SecurityActivity() {
  return <SecurityEventList label="Recent security activity" activity={useSecurityActivity()} />;
}
