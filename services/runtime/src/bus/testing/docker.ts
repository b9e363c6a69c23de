import http from 'node:http';

/**
 * Whether a Docker engine answers `/_ping`, looked up the way the Docker CLI and testcontainers
 * do: `DOCKER_HOST` (unix:// or tcp://) or the default socket. Tests read the environment here
 * because they decide, before anything starts, which legs can run on this machine.
 */
export async function dockerEngineAnswers(timeoutMs = 1_000): Promise<boolean> {
  const host = process.env.DOCKER_HOST;
  let target: http.RequestOptions;
  if (!host || host.startsWith('unix://')) {
    target = { socketPath: host ? host.slice('unix://'.length) : '/var/run/docker.sock' };
  } else if (host.startsWith('tcp://')) {
    const url = new URL(host.replace(/^tcp:/, 'http:'));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else {
    return false;
  }
  return new Promise((resolve) => {
    const request = http.get({ ...target, path: '/_ping', timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => {
      request.destroy();
      resolve(false);
    });
  });
}
