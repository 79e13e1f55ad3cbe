// `npm run sync -- <command>`: the sync room over Node's fetch and fs (docs/sync.md).
//   init --s3 <endpoint> --bucket <b> [--prefix <p>] [--region <r>]   keys: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
//   init --webdav <url>                                               WEBDAV_USERNAME, WEBDAV_PASSWORD
//   init --folder <path>
//   link [--app <origin>] [--plain]    pair <link> [--code <code>]
//   once <folder>...                   watch <folder>...
// Errors: one line on stderr, exit 1 (2 for a wrong command line).
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import {
  createSpace,
  linkNeedsCode,
  newCode,
  newIdentity,
  openPairingLink,
  pairingLink,
  spaceKeys,
  SyncError,
  checkSpace,
  spaceState,
  type SpaceSettings,
} from '../sync/index.ts';
import { type CliConfig, configPath, forgetState, loadConfig, saveConfig, transportOf } from './config.ts';
import { runOnce, watch } from './run.ts';

class UsageError extends Error {}

const DEFAULT_APP = 'http://localhost:4173/';

function parse(argv: string[]): { command: string; flags: Map<string, string | true>; rest: string[] } {
  const [command = '', ...args] = argv;
  const flags = new Map<string, string | true>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('--') && !['--plain'].includes(a)) {
        flags.set(a.slice(2), next);
        i++;
      } else flags.set(a.slice(2), true);
    } else rest.push(a);
  }
  return { command, flags, rest };
}

function str(flags: Map<string, string | true>, name: string): string | undefined {
  const v = flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new UsageError(`${name} is not set: it is read from the environment, never from the command line`);
  return v;
}

async function printLink(config: CliConfig, app: string, plain: boolean): Promise<void> {
  const code = plain ? null : newCode();
  const link = await pairingLink(app, { v: 1, space: config.space, identity: config.identity, from: config.deviceName }, code);
  if (plain) console.error('warning: this link is not locked: whoever sees it can read and change every session in the space');
  console.log(link);
  if (code) console.log(`code: ${code}`);
}

async function init(flags: Map<string, string | true>): Promise<void> {
  let space: SpaceSettings;
  let folder: string | undefined;
  const s3 = str(flags, 's3');
  const dav = str(flags, 'webdav');
  const dir = str(flags, 'folder');
  if (s3) {
    const bucket = str(flags, 'bucket');
    if (!bucket) throw new UsageError('init --s3 needs --bucket <name>');
    let prefix = str(flags, 'prefix') ?? '';
    if (prefix && !prefix.endsWith('/')) prefix += '/';
    space = {
      kind: 's3',
      endpoint: s3,
      region: str(flags, 'region') ?? 'us-east-1',
      bucket,
      prefix,
      accessKeyId: env('AWS_ACCESS_KEY_ID'),
      secretAccessKey: env('AWS_SECRET_ACCESS_KEY'),
    };
  } else if (dav) space = { kind: 'webdav', url: dav.endsWith('/') ? dav : `${dav}/`, username: env('WEBDAV_USERNAME'), password: env('WEBDAV_PASSWORD') };
  else if (dir) {
    folder = resolve(dir);
    space = { kind: 'folder', name: folder };
  } else throw new UsageError('init needs --s3 <endpoint> --bucket <b>, --webdav <url> or --folder <path>');
  const config: CliConfig = { space, identity: await newIdentity(), deviceName: str(flags, 'name') ?? hostname(), folder };
  const transport = transportOf(config);
  const check = await checkSpace({ transport, keys: await spaceKeys(config.identity) });
  if (!check.ok) throw check.error!;
  await createSpace(transport, await spaceKeys(config.identity), Date.now());
  await saveConfig(config);
  await forgetState();
  console.log(`sync space ready at ${transport.where}; settings in ${configPath()}`);
  await printLink(config, str(flags, 'app') ?? DEFAULT_APP, flags.has('plain'));
}

async function pair(rest: string[], flags: Map<string, string | true>): Promise<void> {
  const link = rest[0];
  if (!link) throw new UsageError('pair needs the link');
  let code = str(flags, 'code');
  if (!code && linkNeedsCode(link)) {
    if (!process.stdin.isTTY) throw new SyncError('bad-code', 'This link is locked with a code: pass --code <code>.');
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    code = await rl.question('code: ');
    rl.close();
  }
  const payload = await openPairingLink(link, code);
  const config: CliConfig = { space: payload.space, identity: payload.identity, deviceName: str(flags, 'name') ?? hostname() };
  if (payload.space.kind === 'folder') config.folder = payload.space.name;
  const transport = transportOf(config);
  const state = await spaceState(transport, await spaceKeys(config.identity));
  if (state !== 'ours')
    throw new SyncError('no-space', `${transport.where} holds no sync space for this link's key (${state === 'none' ? 'none there' : 'another key'}).`);
  await saveConfig(config);
  await forgetState();
  console.log(`paired with "${payload.from}": sessions will be stored in ${transport.where}`);
}

async function needConfig(): Promise<CliConfig> {
  const config = await loadConfig();
  if (!config) throw new UsageError(`no sync space set up (${configPath()}): run "init" or "pair" first`);
  return config;
}

async function main(argv: string[]): Promise<number> {
  const { command, flags, rest } = parse(argv);
  switch (command) {
    case 'init':
      await init(flags);
      return 0;
    case 'link':
      await printLink(await needConfig(), str(flags, 'app') ?? DEFAULT_APP, flags.has('plain'));
      return 0;
    case 'pair':
      await pair(rest, flags);
      return 0;
    case 'once':
      if (!rest.length) throw new UsageError('once needs at least one folder');
      return runOnce(
        await needConfig(),
        rest.map((f) => resolve(f)),
      );
    case 'watch':
      if (!rest.length) throw new UsageError('watch needs at least one folder');
      return watch(
        await needConfig(),
        rest.map((f) => resolve(f)),
      );
    default:
      throw new UsageError(`unknown command "${command}": use init, link, pair, once or watch`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`rho-sessions sync: ${message.split('\n')[0]}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
