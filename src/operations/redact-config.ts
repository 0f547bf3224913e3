// config.toml with its secrets taken out, for the debug bundle: the value of any key whose name
// says it holds a secret (password, secret, token, a connection string such as psql-conn, auth,
// credentials) is replaced, and so is the password part of any URL (scheme://user:password@host).
// config.toml holds no key material itself (keys live in their own files, never collected).

const SECRET_KEY =
  /(^|[-_.])(password|passwd|pass|secret|token|conn|credentials?|auth|apikey|api[-_]key)([-_.]|$)/i;
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:/@\s"']+:)[^@\s"']+@/gi;

export const REDACTED = "<redacted>";

export function redactConfigToml(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const m = /^(\s*)("?)([A-Za-z0-9_.-]+)\2(\s*=\s*)(.*)$/.exec(line);
      if (m && SECRET_KEY.test(m[3]!) && m[5]!.trim() !== '""') {
        return `${m[1]}${m[2]}${m[3]}${m[2]}${m[4]}"${REDACTED}"`;
      }
      return line.replace(URL_PASSWORD, `$1${REDACTED}@`);
    })
    .join("\n");
}
