import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies through Fastify's own parser (which guards against prototype poisoning), except that
 * an empty body sent as `application/json` counts as no body. Browsers' fetch wrappers often send
 * the header on a body-less POST such as `/api/wallet/cancel-bonus`; refusing that as malformed JSON
 * would fail a correct request. A route that needs a body still says so through its schema.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
