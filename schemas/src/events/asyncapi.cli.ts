import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { buildMarketWsAsyncApiDocument } from '../api/market-ws.asyncapi';
import { renderAsyncApiDocument } from './asyncapi';

/**
 * Writes `schemas/asyncapi.json` from the topic registry and `schemas/market-ws.asyncapi.json`
 * for the price WebSocket (`npm run schemas:asyncapi`). With `--check` it writes nothing and exits
 * 1 when a committed file is out of date.
 */
export const ASYNCAPI_PATH = fileURLToPath(new URL('../../asyncapi.json', import.meta.url));
export const MARKET_WS_ASYNCAPI_PATH = fileURLToPath(
  new URL('../../market-ws.asyncapi.json', import.meta.url),
);

/** Formatted as the repository's Prettier settings say, so `npm run format` leaves the file alone. */
async function render(path: string, text: string): Promise<string> {
  const options = await prettier.resolveConfig(path);
  return prettier.format(text, { ...options, filepath: path });
}

async function main(argv: readonly string[]): Promise<number> {
  const documents: [string, string][] = [
    [ASYNCAPI_PATH, renderAsyncApiDocument()],
    [MARKET_WS_ASYNCAPI_PATH, JSON.stringify(buildMarketWsAsyncApiDocument())],
  ];
  let upToDate = true;
  for (const [path, text] of documents) {
    const rendered = await render(path, text);
    if (argv.includes('--check')) {
      const current = await readFile(path, 'utf8').catch(() => '');
      const same =
        current !== '' && JSON.stringify(JSON.parse(current)) === JSON.stringify(JSON.parse(rendered));
      console.log(same ? `${path} is up to date` : `${path} is out of date`);
      upToDate &&= same;
      continue;
    }
    await writeFile(path, rendered);
    console.log(`wrote ${path}`);
  }
  return upToDate ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
