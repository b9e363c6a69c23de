import { writeFile } from 'node:fs/promises';
import { renderApiArtifacts } from './api-artifacts';

/** `npm run api:types`: writes schemas/openapi.json and schemas/src/openapi/api-types.ts. */
for (const artifact of await renderApiArtifacts()) {
  await writeFile(artifact.path, artifact.text);
  console.log(`wrote ${artifact.path}`);
}
