import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { renderAsyncApiDocument } from './asyncapi';

/**
 * Writes `schemas/asyncapi.json` from the topic registry (`npm run schemas:asyncapi`).
 * With `--check` it writes nothing and exits 1 when the committed file is out of date.
 */
export const ASYNCAPI_PATH = fileURLToPath(new URL('../../asyncapi.json', import.meta.url));

/** Formatted as the repository's Prettier settings say, so `npm run format` leaves the file alone. */
async function render(): Promise<string> {
  const options = await prettier.resolveConfig(ASYNCAPI_PATH);
  return prettier.format(renderAsyncApiDocument(), { ...options, filepath: ASYNCAPI_PATH });
}

async function main(argv: readonly string[]): Promise<number> {
  const rendered = await render();
  if (argv.includes('--check')) {
    const current = await readFile(ASYNCAPI_PATH, 'utf8').catch(() => '');
    const upToDate =
      current !== '' && JSON.stringify(JSON.parse(current)) === JSON.stringify(JSON.parse(rendered));
    console.log(upToDate ? `${ASYNCAPI_PATH} is up to date` : `${ASYNCAPI_PATH} is out of date`);
    return upToDate ? 0 : 1;
  }
  await writeFile(ASYNCAPI_PATH, rendered);
  console.log(`wrote ${ASYNCAPI_PATH}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
