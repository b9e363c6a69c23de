import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DomainError, type Clock, type Database, type Logger, type Registry } from '@updown/runtime';
import {
  IDENTITY_DOCUMENT_BYTES_MAX,
  IDENTITY_UPLOADS_PER_DAY,
  IdentityDocument,
  IdentityDocumentParams,
  IdentityResponse,
  IdentitySubmitRequest,
  IdentityUploadForm,
  type IdentityDocumentKind,
} from '@updown/schemas/api';
import {
  checkDetails,
  createPdfInspectionQueue,
  DOCUMENT_KINDS,
  documentView,
  type DocumentUpload,
  findUserRole,
  type IdentityContext,
  identityMetrics,
  InvalidDocument,
  loadIdentity,
  openPdfInWorker,
  type PdfInspectionLimits,
  type PdfOpener,
  PdfQueueFull,
  readDocumentContent,
  submitIdentity,
  uploadDocument,
  uploadRefusalReason,
} from '@updown/accounts';
import { errorResponses } from '../http/responses';

const security = [{ bearerAuth: [] }];
const tags = ['identity'];
const MB = IDENTITY_DOCUMENT_BYTES_MAX / (1024 * 1024);

class NotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'Document not found');
  }
}

export interface IdentityPluginDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** Where the queue gauges and refusal counters go (`identity.metrics.ts`); none without. */
  readonly registry?: Registry;
  readonly logger?: Logger;
  /** Bounds of this app's PDF inspection queue (`pdfInspectionLimits(config)`); defaults without. */
  readonly pdfInspections?: PdfInspectionLimits;
  /** Opens a PDF once its turn comes: pdf.js in a worker thread unless a test holds it. */
  readonly openPdf?: PdfOpener;
}

function isDocumentKind(value: unknown): value is IdentityDocumentKind {
  return typeof value === 'string' && (DOCUMENT_KINDS as readonly string[]).includes(value);
}

/**
 * Reads the multipart upload: the `kind` field, then the `file`. The declared file name and
 * Content-Type are ignored; the bytes decide (document-inspection.ts).
 */
async function readUpload(request: FastifyRequest): Promise<DocumentUpload> {
  if (!request.isMultipart()) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the document as multipart/form-data with a kind field and a file field',
    );
  }
  let kind: unknown;
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'kind') kind = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || bytes !== undefined) {
        await part.toBuffer();
        throw new InvalidDocument('Send one file, in the field named file', 'form');
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new DomainError('PAYLOAD_TOO_LARGE', `A document may be at most ${MB} MB`);
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new InvalidDocument('Send one kind field and one file', 'form');
    }
    throw new InvalidDocument('The upload could not be read; send it again', 'form');
  }
  if (!isDocumentKind(kind)) throw new InvalidDocument('kind is photo_id or proof_of_address', 'form');
  if (bytes === undefined) throw new InvalidDocument('Choose a file to upload', 'form');
  return { kind, bytes };
}

/**
 * `/api/identity/*`: the trader's own verification (README "Identity verification"). Uploading a
 * document, submitting the set with a legal name and date of birth, and reading a document back;
 * a document is answered to its owner and to admins only, and is 404 to everyone else.
 */
export function createIdentityPlugin(deps: IdentityPluginDeps): FastifyPluginAsyncTypebox {
  const { db, clock } = deps;
  const metrics = deps.registry ? identityMetrics(deps.registry) : undefined;
  if (metrics && deps.logger) metrics.use({ db, clock, logger: deps.logger });
  const pdfQueue = createPdfInspectionQueue(deps.pdfInspections);
  const openPdf = deps.openPdf ?? openPdfInWorker;
  const ctx: IdentityContext = {
    db,
    clock,
    openPdf: (userId, pdf) => pdfQueue.run(userId, () => openPdf(pdf)),
  };
  return async (app) => {
    // Only this plugin's routes take multipart bodies; everywhere else the API stays JSON only.
    await app.register(multipart, {
      limits: {
        fileSize: IDENTITY_DOCUMENT_BYTES_MAX,
        files: 1,
        fields: 1,
        parts: 2,
        fieldSize: 64,
        headerPairs: 100,
      },
    });

    app.get(
      '/api/identity',
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          summary: "The caller's identity verification: status, what is missing, documents, decision",
          security,
          response: { 200: IdentityResponse, ...errorResponses(401) },
        },
      },
      async (request) => loadIdentity(db, request.user.id),
    );

    app.post(
      '/api/identity/documents',
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          summary: `Upload a photo ID or a proof of address: multipart/form-data with a field kind (photo_id or proof_of_address) and a file field file; JPEG, PNG or PDF (checked from the content), at most ${MB} MB; at most ${IDENTITY_UPLOADS_PER_DAY} uploads an account in 24 hours (429 with Retry-After)`,
          security,
          multipart: IdentityUploadForm,
          response: { 201: IdentityDocument, ...errorResponses(400, 401, 409, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        const userId = request.user.id;
        try {
          const row = await uploadDocument(ctx, userId, () => readUpload(request));
          return await reply.code(201).send(documentView(row));
        } catch (error) {
          const reason = uploadRefusalReason(error);
          if (reason) metrics?.refusedUploads.inc({ reason });
          // The error handler adds Retry-After to 429s only; a full queue's 503 says when too.
          if (error instanceof PdfQueueFull) void reply.header('retry-after', String(error.retryAfterSec));
          throw error;
        }
      },
    );

    app.post(
      '/api/identity/submit',
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          summary:
            'Send the latest photo ID and proof of address with the legal name and date of birth for review; pending until an admin decides',
          security,
          body: IdentitySubmitRequest,
          response: { 200: IdentityResponse, ...errorResponses(400, 401, 409) },
        },
      },
      async (request) => {
        const userId = request.user.id;
        const details = checkDetails(request.body, clock.nowMs());
        await submitIdentity(ctx, userId, details);
        return loadIdentity(db, userId);
      },
    );

    app.get(
      '/api/identity/documents/:id',
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          summary: 'A document file as uploaded, to its owner or an admin (404 to anyone else); never cached',
          security,
          params: IdentityDocumentParams,
          produces: ['image/jpeg', 'image/png', 'application/pdf'],
          response: {
            200: Type.Unsafe<Buffer>({
              type: 'string',
              format: 'binary',
              description: 'The file, with its detected Content-Type',
            }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const own = await readDocumentContent(db, id, request.user.id);
        const doc =
          own ??
          ((await findUserRole(db, request.user.id)) === 'admin'
            ? await readDocumentContent(db, id, undefined)
            : undefined);
        if (!doc) throw new NotFound();
        const extension =
          doc.content_type === 'application/pdf' ? 'pdf' : doc.content_type === 'image/png' ? 'png' : 'jpg';
        return reply
          .headers({
            'content-type': doc.content_type,
            'content-disposition': `inline; filename="${doc.kind}.${extension}"`,
            'cache-control': 'private, no-store',
            // Opened directly, a document runs nothing and loads nothing.
            'content-security-policy':
              "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
          })
          .send(doc.content);
      },
    );
  };
}
