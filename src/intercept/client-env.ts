/**
 * What each client family sets to go through the interception proxy and trust its CA: one list,
 * printed by the banner, handed back by the runner helpers, and shown in docs/intercept.md.
 */

/** Where the proxy listens and the CA's files are. */
export interface InterceptPlace {
  /** e.g. http://127.0.0.1:8443 */
  proxyUrl: string;
  /** The CA's certificate, PEM. */
  certFile: string;
  /** The CA in a Java trust store (JKS, password `changeit`). */
  javaTrustStoreFile: string;
}

/** The name the CA goes by in a system trust store. */
const SYSTEM_NAME = 'callrec-emulator.crt';

/**
 * The environment for every family at once: proxy variables in both spellings (twilio-node and
 * the twilio CLI read `HTTP_PROXY` only, for https too; curl, Go and python read `HTTPS_PROXY`),
 * node's extra CA, Go's and OpenSSL's CA file, and Java's options.
 * @example interceptEnv(place).HTTP_PROXY // 'http://127.0.0.1:8443'
 */
export function interceptEnv(p: InterceptPlace): Record<string, string> {
  return {
    HTTPS_PROXY: p.proxyUrl,
    HTTP_PROXY: p.proxyUrl,
    https_proxy: p.proxyUrl,
    http_proxy: p.proxyUrl,
    NODE_EXTRA_CA_CERTS: p.certFile,
    SSL_CERT_FILE: p.certFile,
    JAVA_TOOL_OPTIONS: javaOptions(p),
  };
}

/** The JVM's proxy and trust store, as system properties (`JAVA_TOOL_OPTIONS`). */
export function javaOptions(p: InterceptPlace): string {
  const { hostname, port } = new URL(p.proxyUrl);
  return [
    `-Dhttps.proxyHost=${hostname}`,
    `-Dhttps.proxyPort=${port}`,
    `-Dhttp.proxyHost=${hostname}`,
    `-Dhttp.proxyPort=${port}`,
    `-Djavax.net.ssl.trustStore=${p.javaTrustStoreFile}`,
    '-Djavax.net.ssl.trustStorePassword=changeit',
  ].join(' ');
}

/** A shell word: quoted when it holds anything a shell would read. */
const sh = (text: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/**
 * The lines to paste, per client family, for the banner and the docs.
 * @example clientLines(place)[0] // "  node (twilio-node, twilio CLI): export HTTP_PROXY=… HTTPS_PROXY=… NODE_EXTRA_CA_CERTS=…"
 */
export function clientLines(p: InterceptPlace): string[] {
  const url = sh(p.proxyUrl);
  const ca = sh(p.certFile);
  return [
    `  node (twilio-node, the twilio CLI): export HTTP_PROXY=${url} HTTPS_PROXY=${url} NODE_EXTRA_CA_CERTS=${ca}   (twilio-node and the CLI read HTTP_PROXY only)`,
    `  python (python3-twilio): export HTTPS_PROXY=${url}; trust the CA system-wide (REQUESTS_CA_BUNDLE is not read): sudo cp ${ca} /usr/local/share/ca-certificates/${SYSTEM_NAME} && sudo update-ca-certificates   (undo: sudo rm /usr/local/share/ca-certificates/${SYSTEM_NAME} && sudo update-ca-certificates --fresh)`,
    `  java: export JAVA_TOOL_OPTIONS=${sh(javaOptions(p))}`,
    `  go: export HTTPS_PROXY=${url} SSL_CERT_FILE=${ca}`,
    `  curl: curl --proxy ${url} --cacert ${ca} https://…`,
  ];
}
