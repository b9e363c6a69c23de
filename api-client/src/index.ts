export {
  ApiCallError,
  ApiClient,
  fetchTransport,
  injectTransport,
  type Answer,
  type ApiClientOptions,
  type CallOptions,
  type Injectable,
  type RequestOptions,
  type Transport,
  type WireAnswer,
  type WireMethod,
  type WireRequest,
} from './client';
export { newUser, signIn, signUp, type NewUser, type Session, type SignedUp } from './accounts';
export { urlOf } from '@updown/schemas/openapi';
