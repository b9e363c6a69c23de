export { clearForWithdrawals, fundUser, type Funds } from './funding';
