// A throwaway PostgreSQL cluster for tests: initdb in a temporary directory, a server on a free
// loopback port (its unix socket in the same directory, never the system's), a password for
// TCP logins (so tests see a real password in psql-conn), stopped and removed afterwards.
// PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user the
// Debian package creates (runuser); otherwise to the current user. Durability settings are off
// (fsync, synchronous_commit): the tests stop the server, they never power the machine off.
// The package's own cluster (port 5432), if any, is never touched.
import { execFile, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PostgresCluster {
  /** postgresql://rxbft:<password>@127.0.0.1:<port>/rxbft */
  url: string;
  port: number;
  password: string;
  /** Stops the server (fast shutdown); the data stays. */
  stopServer(): Promise<void>;
  /** Starts it again on the same port. */
  startServer(): Promise<void>;
  /** Creates another database (a test's own) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes the directory. */
  destroy(): Promise<void>;
}

/** The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string {
  const base = "/usr/lib/postgresql";
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter((d) => existsSync(join(base, d, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run `bash test/system/install-packages.sh`",
    );
  }
  return join(base, majors[0]!, "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function ownerIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (line === undefined)
    throw new Error("running as root but there is no `postgres` user to own the cluster");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

const PREFIX = "rxbft-pg-";

/** Stops a cluster at once and removes its directory, synchronously (exit handlers, reaping). */
function removeNow(bin: string, dir: string, asPostgres: boolean): void {
  const ctl = [join(bin, "pg_ctl"), "-D", join(dir, "data"), "-m", "immediate", "-w", "-t", "30", "stop"];
  if (existsSync(join(dir, "data", "postmaster.pid"))) {
    if (asPostgres) spawnSync("runuser", ["-u", "postgres", "--", ...ctl], { stdio: "ignore" });
    else spawnSync(ctl[0]!, ctl.slice(1), { stdio: "ignore" });
  }
  rmSync(dir, { recursive: true, force: true });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Clusters left by test processes that were killed (a timeout, SIGKILL) are stopped and removed. */
function reapOrphans(bin: string, asPostgres: boolean): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(join(dir, "test-process.pid"), "utf8"));
    } catch {
      continue; // being created right now, or not ours
    }
    if (Number.isInteger(pid) && !alive(pid)) removeNow(bin, dir, asPostgres);
  }
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const owner = ownerIds();
  reapOrphans(bin, owner !== undefined);
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  chmodSync(dir, 0o700);
  writeFileSync(join(dir, "test-process.pid"), String(process.pid));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  // A test process that ends without its after() hook still takes its cluster down.
  const onExit = () => removeNow(bin, dir, owner !== undefined);
  process.once("exit", onExit);
  const asOwner = (file: string, args: string[], timeout = 60_000) =>
    owner
      ? run("runuser", ["-u", "postgres", "--", file, ...args], { cwd: dir, timeout })
      : run(file, args, { cwd: dir, timeout });
  const data = join(dir, "data");
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const pwfile = join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwfile, owner.uid, owner.gid);
  await asOwner(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "rxbft",
    "--pwfile",
    pwfile,
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  let port = 0;
  const start = async () => {
    await asOwner(join(bin, "pg_ctl"), [
      "-D",
      data,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-t",
      "60",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=40`,
      "start",
    ]);
  };
  const stop = async () => {
    await asOwner(join(bin, "pg_ctl"), ["-D", data, "-w", "-t", "60", "-m", "fast", "stop"]).catch(() => {});
  };
  // Another process may take the free port before the server binds it: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const createDatabase = async (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name ${name} is not a plain identifier`);
    const args = [
      "-h",
      dir,
      "-p",
      String(port),
      "-U",
      "rxbft",
      "-d",
      "postgres",
      "-qc",
      `CREATE DATABASE ${name}`,
    ];
    await asOwner(join(bin, "psql"), args);
    return `postgresql://rxbft:${password}@127.0.0.1:${port}/${name}`;
  };
  try {
    await createDatabase("rxbft");
  } catch (error) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let destroyed = false;
  return {
    url: `postgresql://rxbft:${password}@127.0.0.1:${port}/rxbft`,
    port,
    password,
    stopServer: stop,
    startServer: start,
    createDatabase,
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      process.removeListener("exit", onExit);
      // Nothing is kept: an immediate stop skips the shutdown checkpoint.
      await asOwner(join(bin, "pg_ctl"), ["-D", data, "-w", "-t", "60", "-m", "immediate", "stop"]).catch(
        () => {},
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
