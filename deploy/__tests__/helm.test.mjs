// The Helm chart (deploy/helm/motoparts): `helm lint` and `helm template` with the default and
// the production values, every rendered object decoded strictly into the Kubernetes API's Go
// types (.tools/bin/k8scheck, built from tools/k8s with helm), and what a deployment relies on,
// read from the rendered objects. `npm test` builds both tools first (scripts/services.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = path.join(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, '.tools', 'bin');
const CHART = path.join(ROOT, 'deploy', 'helm', 'motoparts');
const PRODUCTION = path.join(CHART, 'values-production.yaml');
const FRONT_ENDS = ['shell', 'storefront', 'auth', 'dashboard'];
const SECRET_KEYS = ['MONGODB_URI', 'JWT_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];

function run(bin, args, input) {
  const res = spawnSync(path.join(BIN, bin), args, { encoding: 'utf8', input, cwd: ROOT });
  if (res.error)
    throw new Error(`${bin} could not run (npm test builds it into .tools/bin): ${res.error.message}`);
  return res;
}

function template(...args) {
  const res = run('helm', ['template', 'shop', CHART, '--namespace', 'motoparts', ...args]);
  assert.equal(res.status, 0, `helm template ${args.join(' ')} failed:\n${res.stderr}`);
  return res.stdout;
}

function objects(rendered) {
  return parseAllDocuments(rendered)
    .map((d) => d.toJS())
    .filter(Boolean);
}
const find = (objs, kind, name) => objs.find((o) => o.kind === kind && o.metadata.name === name);

/** Plain objects merged as helm merges values files (a later file's maps into the earlier ones). */
function merge(base, over) {
  if (!isMap(base) || !isMap(over)) return over === undefined ? base : over;
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = v === null ? undefined : merge(base[k], v);
  return out;
}
const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The chart's values for a variant's arguments (`-f` files only). */
function valuesOf(args) {
  const files = [path.join(CHART, 'values.yaml')];
  for (let i = 0; i < args.length; i++) if (args[i] === '-f') files.push(args[i + 1]);
  return files.map((f) => parse(readFileSync(f, 'utf8'))).reduce(merge, {});
}

/** The variables the API reads from a file as <NAME>_FILE (FILE_VARIABLES in api/src/lib/env.ts). */
function apiFileVariables() {
  const source = readFileSync(path.join(ROOT, 'api', 'src', 'lib', 'env.ts'), 'utf8');
  const list = /export const FILE_VARIABLES = \[([^\]]*)\]/.exec(source);
  assert.ok(list, 'api/src/lib/env.ts exports FILE_VARIABLES');
  return [...list[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
}

/**
 * Where a file the container reads comes from: the volume mounted over it, and the Secret and key
 * (a secret volume or a projected one) the file is; with the file's mode.
 */
function secretFile(pod, container, file) {
  const mount = container.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`));
  assert.ok(mount, `${file} is inside a mounted volume`);
  assert.equal(mount.readOnly, true, `${mount.mountPath} is mounted read-only`);
  assert.equal(mount.subPath, undefined, `${mount.mountPath} is a directory mount`);
  const volume = pod.volumes.find((v) => v.name === mount.name);
  const relative = file.slice(mount.mountPath.length + 1);
  const sources = volume.projected
    ? volume.projected.sources
    : [{ secret: { name: volume.secret?.secretName, items: volume.secret?.items } }];
  for (const source of sources) {
    const item = (source.secret?.items ?? []).find((i) => i.path === relative);
    if (item) {
      const mode = item.mode ?? (volume.projected ?? volume.secret).defaultMode;
      return { secret: source.secret.name, key: item.key, mode, optional: source.secret.optional };
    }
  }
  assert.fail(`${file} is not a key of a Secret in volume ${volume.name}`);
}

// NetworkPolicy semantics (networking.k8s.io/v1), enough to ask whether one endpoint may open a
// connection to another: the policies selecting a pod isolate it in their direction, and a
// connection needs the source's egress and the destination's ingress allowed. Endpoints are pods
// ({ namespace: { name, labels }, labels, ip }) or addresses outside the cluster ({ ip }).
const RELEASE_NS = { name: 'motoparts', labels: { 'kubernetes.io/metadata.name': 'motoparts' } };

function selects(selector, labels) {
  assert.equal(selector.matchExpressions, undefined, 'the test reads matchLabels only');
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v);
}

/** IPv4 only: an IPv6 block never holds an IPv4 address. */
function inCidr(ip, cidr) {
  const [base, bits] = cidr.split('/');
  if (base.includes(':')) return false;
  const n = (a) => a.split('.').reduce((x, o) => x * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(n(ip) / size) === Math.floor(n(base) / size);
}

function peerMatches(peer, endpoint) {
  if (peer.ipBlock) {
    return (
      inCidr(endpoint.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((c) => inCidr(endpoint.ip, c))
    );
  }
  if (!endpoint.namespace) return false; // selectors pick pods, never outside addresses
  const namespace = peer.namespaceSelector
    ? selects(peer.namespaceSelector, endpoint.namespace.labels)
    : endpoint.namespace.name === RELEASE_NS.name;
  return namespace && (!peer.podSelector || selects(peer.podSelector, endpoint.labels));
}

function portMatches(ports, port, protocol) {
  if (!ports?.length) return true;
  return ports.some((p) => {
    assert.notEqual(typeof p.port, 'string', 'the chart names ports by number');
    return (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port);
  });
}

function allows(policies, endpoint, direction, other, port, protocol) {
  if (endpoint.namespace?.name !== RELEASE_NS.name) return true; // the chart's policies live in its namespace
  const type = direction === 'ingress' ? 'Ingress' : 'Egress';
  const selecting = policies.filter(
    (p) => selects(p.spec.podSelector, endpoint.labels) && (p.spec.policyTypes ?? ['Ingress']).includes(type),
  );
  if (selecting.length === 0) return true;
  return selecting.some((p) =>
    (p.spec[direction] ?? []).some((rule) => {
      const peers = rule[direction === 'ingress' ? 'from' : 'to'];
      return (
        (!peers?.length || peers.some((peer) => peerMatches(peer, other))) &&
        portMatches(rule.ports, port, protocol)
      );
    }),
  );
}

/** Whether `from` may open a connection to `to` on port/protocol under the rendered policies. */
function connects(objs, from, to, port, protocol = 'TCP') {
  const policies = objs.filter((o) => o.kind === 'NetworkPolicy');
  return (
    allows(policies, from, 'egress', to, port, protocol) &&
    allows(policies, to, 'ingress', from, port, protocol)
  );
}

/** The pods of the release (one per workload, labelled as its Deployment's template) and others. */
function endpoints(objs) {
  const pod = (name, ip) => ({
    namespace: RELEASE_NS,
    labels: find(objs, 'Deployment', `shop-motoparts-${name}`).spec.template.metadata.labels,
    ip,
  });
  const ingressNs = { name: 'ingress-nginx', labels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } };
  return {
    api: pod('api', '10.8.1.1'),
    shell: pod('shell', '10.8.1.2'),
    storefront: pod('storefront', '10.8.1.3'),
    auth: pod('auth', '10.8.1.4'),
    dashboard: pod('dashboard', '10.8.1.5'),
    controller: {
      namespace: ingressNs,
      labels: { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller' },
      ip: '10.8.2.1',
    },
    kubeDns: {
      namespace: { name: 'kube-system', labels: { 'kubernetes.io/metadata.name': 'kube-system' } },
      labels: { 'k8s-app': 'kube-dns' },
      ip: '10.8.3.10',
    },
    // Any other pod: one of the release's namespace, one beside the controller.
    neighbour: { namespace: RELEASE_NS, labels: { app: 'debug' }, ip: '10.8.1.99' },
    besideController: { namespace: ingressNs, labels: { app: 'default-backend' }, ip: '10.8.2.9' },
    internet: { ip: '203.0.113.10' },
    privateHost: { ip: '10.20.0.5' },
    metadataServer: { ip: '169.254.169.254' },
  };
}

const variants = {
  default: [],
  production: ['-f', PRODUCTION],
};

for (const [variant, args] of Object.entries(variants)) {
  describe(`helm chart, ${variant} values`, () => {
    const rendered = template(...args);
    const objs = objects(rendered);

    test('helm lint passes', () => {
      const res = run('helm', ['lint', '--strict', CHART, ...args]);
      assert.equal(res.status, 0, res.stdout + res.stderr);
    });

    test('every rendered object decodes strictly into the Kubernetes API types', () => {
      const res = run('k8scheck', [], rendered);
      assert.equal(res.status, 0, res.stdout + res.stderr);
      assert.match(res.stdout, new RegExp(`^${objs.length} objects checked, 0 failed$`, 'm'));
    });

    test('the API: replicas, resources, readiness /health and liveness probes, PDB, HPA', () => {
      const api = find(objs, 'Deployment', 'shop-motoparts-api');
      const pod = api.spec.template.spec;
      const [c] = pod.containers;
      assert.equal(c.readinessProbe.httpGet.path, '/health');
      assert.equal(c.livenessProbe.httpGet.path, '/livez');
      assert.ok(c.resources.requests.cpu && c.resources.requests.memory, 'requests');
      assert.ok(c.resources.limits.cpu && c.resources.limits.memory, 'limits');
      assert.equal(pod.securityContext.runAsNonRoot, true);
      assert.equal(c.securityContext.readOnlyRootFilesystem, true);
      assert.equal(c.securityContext.allowPrivilegeEscalation, false);
      const env = Object.fromEntries(c.env.map((e) => [e.name, e]));
      assert.equal(env.NODE_ENV.value, 'production');
      // Behind the Ingress: one trusted hop, so a client cannot pick its rate-limit address.
      assert.equal(env.TRUST_PROXY_HOPS.value, '1');
      // A staging deployment says so (api.stripeTestMode); production never does by default.
      assert.equal(env.STRIPE_TEST_MODE, undefined);
      for (const local of ['FIREBASE_AUTH_EMULATOR_HOST', 'STRIPE_API_BASE', 'ALLOW_LOCAL_SERVICES']) {
        assert.equal(env[local], undefined, `no ${local} in a cluster`);
      }
      const hpa = find(objs, 'HorizontalPodAutoscaler', 'shop-motoparts-api');
      assert.equal(hpa.spec.scaleTargetRef.name, 'shop-motoparts-api');
      assert.ok(hpa.spec.minReplicas >= 2, 'at least two API replicas');
      assert.equal(api.spec.replicas, undefined, 'the HPA owns the replica count');
      const pdb = find(objs, 'PodDisruptionBudget', 'shop-motoparts-api');
      assert.deepEqual(pdb.spec.selector.matchLabels, api.spec.selector.matchLabels);
      assert.ok(pdb.spec.minAvailable < hpa.spec.minReplicas, 'a node drain can always proceed');
      assert.ok(find(objs, 'Service', 'shop-motoparts-api'));
    });

    test("the API's secrets are files of the mounted Secrets, read through <NAME>_FILE", () => {
      const values = valuesOf(args).api;
      const { pod, container, env } = apiPod(objs);
      assert.deepEqual(
        apiFileVariables().sort(),
        [...SECRET_KEYS].sort(),
        'every secret the API can read from a file',
      );
      const expected = {
        MONGODB_URI: { secret: values.mongodb.uriSecret.name, key: values.mongodb.uriSecret.key },
        JWT_SECRET: { secret: values.secretName, key: 'JWT_SECRET' },
        STRIPE_SECRET_KEY: { secret: values.secretName, key: 'STRIPE_SECRET_KEY' },
        STRIPE_WEBHOOK_SECRET: { secret: values.secretName, key: 'STRIPE_WEBHOOK_SECRET' },
      };
      for (const name of SECRET_KEYS) {
        assert.equal(env[name], undefined, `${name} is not in the environment`);
        const file = env[`${name}_FILE`]?.value;
        assert.ok(file, `${name}_FILE names the file`);
        const from = secretFile(pod, container, file);
        assert.deepEqual(
          { secret: from.secret, key: from.key },
          expected[name],
          `${name}_FILE is the Secret's key`,
        );
        assert.equal(from.mode, 0o440, `${name} is readable by the pod's group only`);
        assert.equal(from.optional, undefined, 'a missing Secret keeps the pod from starting');
      }
      // Mail is on: the SMTP server's URL (with its password) is a file of the same kind.
      assert.equal(env.SMTP_URL, undefined, 'SMTP_URL is not in the environment');
      const smtp = secretFile(pod, container, env.SMTP_URL_FILE?.value ?? '');
      assert.deepEqual(
        { secret: smtp.secret, key: smtp.key, mode: smtp.mode, optional: smtp.optional },
        {
          secret: values.mail.smtpUrlSecret.name || values.secretName,
          key: values.mail.smtpUrlSecret.key,
          mode: 0o440,
          optional: undefined,
        },
      );
      assert.equal(env.MAIL_FROM.value, values.mail.from);
      assert.equal(env.MAIL_DISABLED, undefined, 'mail is on unless the values say otherwise');
      assert.deepEqual(
        container.env.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name),
        [],
        "no variable holds a Secret's value",
      );
      assert.equal(container.envFrom, undefined);
    });

    test("the shell's server calls the API's Service with the service token, a file of the API's Secret", () => {
      const values = valuesOf(args).api;
      const expected = {
        secret: values.serviceToken.secretName || values.secretName,
        key: values.serviceToken.key,
      };
      // The API reads the token from a file of its mounted Secrets.
      const api = apiPod(objs);
      assert.equal(api.env.SERVICE_TOKEN, undefined);
      const apiToken = secretFile(api.pod, api.container, api.env.SERVICE_TOKEN_FILE?.value ?? '');
      assert.deepEqual({ secret: apiToken.secret, key: apiToken.key }, expected);
      assert.equal(apiToken.mode, 0o440);
      assert.equal(apiToken.optional, undefined, 'a missing Secret keeps the pod from starting');
      // The shell reads the same Secret's key, also as a file; the image's entrypoint reads it.
      const shell = find(objs, 'Deployment', 'shop-motoparts-shell').spec.template.spec;
      const [nginx] = shell.containers;
      const env = Object.fromEntries(nginx.env.map((v) => [v.name, v]));
      assert.equal(env.SERVICE_TOKEN, undefined, 'the token is not a variable of the pod');
      const shellToken = secretFile(shell, nginx, env.SERVICE_TOKEN_FILE?.value ?? '');
      assert.deepEqual({ secret: shellToken.secret, key: shellToken.key }, expected);
      assert.equal(shellToken.mode, 0o440);
      assert.equal(shellToken.optional, undefined);
      assert.equal(nginx.envFrom, undefined);
      assert.deepEqual(
        nginx.env.filter((v) => v.valueFrom).map((v) => v.name),
        [],
        "no variable holds a Secret's value",
      );
      // The API's own Service, by its cluster name, on the Service's port.
      const service = find(objs, 'Service', 'shop-motoparts-api');
      const port = service.spec.ports.find((p) => p.name === 'http').port;
      const url = new URL(env.API_INTERNAL_URL?.value ?? '');
      assert.equal(url.protocol, 'http:');
      assert.equal(url.hostname, 'shop-motoparts-api.motoparts.svc.cluster.local');
      assert.equal(Number(url.port || 80), port);
      // No other front end gets the token or the API's address.
      for (const name of ['storefront', 'auth', 'dashboard']) {
        const pod = find(objs, 'Deployment', `shop-motoparts-${name}`).spec.template.spec;
        const names = pod.containers[0].env.map((v) => v.name);
        assert.ok(!names.includes('SERVICE_TOKEN_FILE') && !names.includes('API_INTERNAL_URL'), name);
        assert.ok(!pod.volumes.some((v) => v.secret || v.projected), `${name} mounts no Secret`);
      }
    });

    test('TLS on the Ingress: one Secret for every host; cert-manager when a ClusterIssuer is named', () => {
      const values = valuesOf(args).ingress;
      const ingress = objs.find((o) => o.kind === 'Ingress');
      const hosts = ingress.spec.rules.map((r) => r.host);
      assert.deepEqual(ingress.spec.tls, [{ secretName: values.tls.secretName, hosts }]);
      assert.equal(
        ingress.metadata.annotations?.['cert-manager.io/cluster-issuer'],
        values.tls.clusterIssuer || undefined,
      );
      for (const [k, v] of Object.entries(values.annotations ?? {}))
        assert.equal(ingress.metadata.annotations[k], v);
    });

    test('a NetworkPolicy per workload: the API only from the ingress controller; each pod reaches only what it needs', () => {
      const policies = objs.filter((o) => o.kind === 'NetworkPolicy');
      assert.equal(policies.length, 1 + FRONT_ENDS.length);
      for (const name of ['api', ...FRONT_ENDS]) {
        const labels = find(objs, 'Deployment', `shop-motoparts-${name}`).spec.template.metadata.labels;
        const own = policies.filter((p) => selects(p.spec.podSelector, labels));
        assert.equal(own.length, 1, `one policy selects the ${name} pods`);
        assert.deepEqual(
          [...own[0].spec.policyTypes].sort(),
          ['Egress', 'Ingress'],
          `${name}: both directions`,
        );
      }
      const e = endpoints(objs);
      // In: the API only from the controller, on its port; so X-Forwarded-For's last hop is always it.
      assert.ok(connects(objs, e.controller, e.api, 5000));
      assert.ok(!connects(objs, e.controller, e.api, 9229), 'only the API port');
      // The shell's server asks the API for part pages' heads and the sitemap; no other pod does.
      assert.ok(connects(objs, e.shell, e.api, 5000), 'the shell reaches the API');
      assert.ok(!connects(objs, e.shell, e.api, 9229), "only the API's port");
      for (const who of ['storefront', 'auth', 'dashboard', 'neighbour', 'besideController']) {
        assert.ok(!connects(objs, e[who], e.api, 5000), `${who} does not reach the API`);
      }
      for (const name of FRONT_ENDS) {
        assert.ok(connects(objs, e.controller, e[name], 8080), `the controller reaches ${name}`);
        assert.ok(!connects(objs, e.neighbour, e[name], 8080), `another pod does not reach ${name}`);
      }
      // The shell includes the storefront's and the dashboard's first screens, and nothing else.
      assert.ok(connects(objs, e.shell, e.storefront, 8080));
      assert.ok(connects(objs, e.shell, e.dashboard, 8080));
      assert.ok(connects(objs, e.shell, e.kubeDns, 53, 'UDP'), 'the shell resolves them per request');
      assert.ok(!connects(objs, e.shell, e.auth, 8080));
      assert.ok(!connects(objs, e.shell, e.internet, 443));
      assert.ok(!connects(objs, e.auth, e.storefront, 8080), 'only the shell, of the front ends');
      assert.ok(!connects(objs, e.storefront, e.dashboard, 8080));
      for (const name of FRONT_ENDS) {
        // nginx resolves its resolver's host name (nginxResolver) when it starts.
        assert.ok(connects(objs, e[name], e.kubeDns, 53, 'UDP'), `${name} resolves names`);
        for (const [to, port] of [
          ['internet', 443],
          ['internet', 80],
          ...(name === 'shell' ? [] : [['api', 5000]]),
          ['kubeDns', 80],
        ]) {
          assert.ok(!connects(objs, e[name], e[to], port), `${name} does not reach ${to}:${port}`);
        }
      }
      // Out of the API: DNS, MongoDB, HTTPS to public addresses (Firebase, Stripe), nothing else.
      assert.ok(connects(objs, e.api, e.kubeDns, 53, 'UDP'));
      assert.ok(connects(objs, e.api, e.kubeDns, 53, 'TCP'));
      assert.ok(!connects(objs, e.api, e.kubeDns, 80));
      assert.ok(connects(objs, e.api, e.internet, 443));
      assert.ok(connects(objs, e.api, e.internet, 27017), 'a managed MongoDB, anywhere by default');
      for (const port of [80, 25, 6379])
        assert.ok(!connects(objs, e.api, e.internet, port), `not port ${port}`);
      // Mail: the SMTP server's port, on public addresses by default.
      const smtp = valuesOf(args).networkPolicy.api.smtp;
      assert.ok(connects(objs, e.api, e.internet, smtp.port), `SMTP on ${smtp.port}`);
      assert.ok(!connects(objs, e.api, e.privateHost, smtp.port), 'SMTP only to public addresses');
      assert.ok(!connects(objs, e.api, e.privateHost, 443), 'HTTPS only to public addresses');
      assert.ok(!connects(objs, e.api, e.storefront, 8080));
      // Workload Identity asks the node's metadata server; a mounted key needs none.
      const workloadIdentity = !valuesOf(args).api.firebase.credentialsSecret;
      assert.equal(connects(objs, e.api, e.metadataServer, 80), workloadIdentity);
      assert.ok(!connects(objs, e.api, e.metadataServer, 443));
    });

    test('each front end: its own Deployment, Service and image tag; config.json from the ConfigMap', () => {
      const config = find(objs, 'ConfigMap', 'shop-motoparts-config');
      const json = JSON.parse(config.data['config.json']);
      assert.match(json.apiBaseUrl, /^https:\/\//);
      for (const name of FRONT_ENDS) {
        const deployment = find(objs, 'Deployment', `shop-motoparts-${name}`);
        assert.ok(find(objs, 'Service', `shop-motoparts-${name}`), `${name} has a Service`);
        const pod = deployment.spec.template.spec;
        const mount = pod.containers[0].volumeMounts.find(
          (m) => m.mountPath === '/usr/share/nginx/html/config.json',
        );
        assert.equal(mount.subPath, 'config.json');
        const volume = pod.volumes.find((v) => v.name === mount.name);
        assert.equal(volume.configMap.name, 'shop-motoparts-config');
        assert.ok(
          deployment.spec.template.metadata.annotations['checksum/config'],
          'a config change rolls the pods',
        );
        assert.equal(pod.securityContext.runAsNonRoot, true);
      }
      const ingress = objs.find((o) => o.kind === 'Ingress');
      const backends = ingress.spec.rules.map((r) => r.http.paths[0].backend.service.name).sort();
      assert.deepEqual(backends, ['api', ...FRONT_ENDS].map((n) => `shop-motoparts-${n}`).sort());
      const text = rendered.toLowerCase();
      for (const secret of [
        'sk_live_',
        'sk_test_',
        'whsec_',
        'mongodb://',
        'jwt_secret:',
        'smtp://',
        'smtps://',
      ]) {
        assert.ok(!text.includes(secret), `no secret value (${secret}…) is rendered`);
      }
    });
  });
}

/** The API Deployment's pod spec, its container and its env by name. */
function apiPod(objs) {
  const deployment = find(objs, 'Deployment', 'shop-motoparts-api');
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  const env = Object.fromEntries(container.env.map((e) => [e.name, e]));
  return { deployment, pod, container, env };
}

function assertK8sValid(rendered) {
  const res = run('k8scheck', [], rendered);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout, / 0 failed$/m);
}

describe("the API's Firebase Admin credential (Application Default Credentials)", () => {
  test('production: the service-account Secret is mounted read-only and named by GOOGLE_APPLICATION_CREDENTIALS', () => {
    const values = parse(readFileSync(PRODUCTION, 'utf8')).api.firebase;
    assert.ok(values.credentialsSecret, 'values-production.yaml names the Secret');
    const { pod, container, env } = apiPod(objects(template('-f', PRODUCTION)));
    const volume = pod.volumes.find((v) => v.secret?.secretName === values.credentialsSecret);
    assert.ok(volume, `a volume from Secret ${values.credentialsSecret}`);
    assert.equal(volume.secret.items.length, 1, 'only the key file is projected');
    const [item] = volume.secret.items;
    assert.equal(item.key, values.credentialsKey);
    assert.equal(volume.secret.defaultMode, 0o440, 'read-only for the owner and the pod group, not others');
    assert.equal(volume.secret.optional, undefined, 'a missing Secret keeps the pod from starting');
    const mount = container.volumeMounts.find((m) => m.name === volume.name);
    assert.equal(mount.readOnly, true);
    assert.equal(mount.subPath, undefined, 'a directory mount: a rotated key reaches the pod');
    assert.equal(env.GOOGLE_APPLICATION_CREDENTIALS.value, `${mount.mountPath}/${item.path}`);
  });

  test('default: nothing mounted, no GOOGLE_APPLICATION_CREDENTIALS (workload identity instead)', () => {
    const { pod, container, env } = apiPod(objects(template()));
    assert.equal(env.GOOGLE_APPLICATION_CREDENTIALS, undefined);
    assert.deepEqual(
      pod.volumes.filter((v) => v.secret),
      [],
      'no Secret volume',
    );
    assert.deepEqual(
      container.volumeMounts.map((m) => m.mountPath),
      ['/tmp', '/var/run/secrets/motoparts/api'],
    );
    assert.equal(pod.serviceAccountName, undefined, 'the namespace default unless named');
    assert.equal(pod.automountServiceAccountToken, false);
  });

  test('a ServiceAccount for workload identity is rendered when named', () => {
    const rendered = template('--set', 'api.serviceAccountName=motoparts-api');
    const { pod, env } = apiPod(objects(rendered));
    assert.equal(pod.serviceAccountName, 'motoparts-api');
    assert.equal(env.GOOGLE_APPLICATION_CREDENTIALS, undefined);
    assertK8sValid(rendered);
  });

  test('the service token from a Secret of its own, for the API and the shell alike', () => {
    const rendered = template(
      '--set',
      'api.serviceToken.secretName=motoparts-service-token',
      '--set',
      'api.serviceToken.key=token',
    );
    const objs = objects(rendered);
    const api = apiPod(objs);
    const shell = find(objs, 'Deployment', 'shop-motoparts-shell').spec.template.spec;
    const shellEnv = Object.fromEntries(shell.containers[0].env.map((v) => [v.name, v.value]));
    for (const [pod, container, file] of [
      [api.pod, api.container, api.env.SERVICE_TOKEN_FILE.value],
      [shell, shell.containers[0], shellEnv.SERVICE_TOKEN_FILE],
    ]) {
      const from = secretFile(pod, container, file);
      assert.deepEqual(
        { secret: from.secret, key: from.key },
        { secret: 'motoparts-service-token', key: 'token' },
      );
    }
    assertK8sValid(rendered);
    const res = run('helm', ['template', 'shop', CHART, '--set', 'api.serviceToken.key=']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /api\.serviceToken\.key is required/);
  });

  test('a Secret without a key stops the render', () => {
    const res = run('helm', [
      'template',
      'shop',
      CHART,
      '--set',
      'api.firebase.credentialsSecret=motoparts-firebase',
      '--set',
      'api.firebase.credentialsKey=',
    ]);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /api\.firebase\.credentialsKey is required/);
  });
});

describe('NetworkPolicies: values', () => {
  /** Renders with a values file holding `values` (selector keys have dots, which --set cannot take). */
  function withValues(values) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'values-')), 'values.yaml');
    writeFileSync(file, JSON.stringify(values));
    const rendered = template('-f', file);
    assertK8sValid(rendered);
    return objects(rendered);
  }

  test('networkPolicy.enabled=false renders none', () => {
    const rendered = template('--set', 'networkPolicy.enabled=false');
    assert.equal(objects(rendered).filter((o) => o.kind === 'NetworkPolicy').length, 0);
    assertK8sValid(rendered);
  });

  test("the ingress controller's namespace and pods are values", () => {
    const objs = withValues({
      networkPolicy: {
        ingressController: {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'traefik' } },
          podSelector: null,
        },
      },
    });
    const e = endpoints(objs);
    const traefik = {
      namespace: { name: 'traefik', labels: { 'kubernetes.io/metadata.name': 'traefik' } },
      labels: {},
      ip: '10.8.4.1',
    };
    assert.ok(connects(objs, traefik, e.api, 5000), 'any pod of that namespace');
    assert.ok(connects(objs, traefik, e.shell, 8080));
    assert.ok(!connects(objs, e.controller, e.api, 5000), 'ingress-nginx no more');
  });

  test("more peers for the API, MongoDB narrowed to its addresses, the SMTP server's port", () => {
    const objs = withValues({
      networkPolicy: {
        api: {
          extraIngressFrom: [
            { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
          ],
          mongodb: { ports: [27017, 27018], to: [{ ipBlock: { cidr: '10.30.0.0/16' } }] },
          smtp: { port: 465 },
        },
      },
    });
    const e = endpoints(objs);
    const probe = {
      namespace: { name: 'monitoring', labels: { 'kubernetes.io/metadata.name': 'monitoring' } },
      labels: {},
      ip: '10.8.5.1',
    };
    assert.ok(connects(objs, probe, e.api, 5000));
    assert.ok(connects(objs, e.controller, e.api, 5000), 'the controller still');
    assert.ok(connects(objs, e.api, { ip: '10.30.1.2' }, 27017));
    assert.ok(connects(objs, e.api, { ip: '10.30.1.2' }, 27018));
    assert.ok(!connects(objs, e.api, e.internet, 27017), 'MongoDB only there');
    assert.ok(connects(objs, e.api, e.internet, 465), 'SMTP');
    assert.ok(!connects(objs, e.api, e.internet, 25));
    assert.ok(!connects(objs, e.api, e.internet, 587), 'only the port given');
  });
});

describe('Ingress TLS: values', () => {
  test('a named ClusterIssuer adds the cert-manager annotation; TLS can be turned off; a secret name is required', () => {
    const ingress = (...args) => objects(template(...args)).find((o) => o.kind === 'Ingress');
    const issued = ingress('--set', 'ingress.tls.clusterIssuer=letsencrypt-staging');
    assert.equal(issued.metadata.annotations['cert-manager.io/cluster-issuer'], 'letsencrypt-staging');
    assert.equal(issued.spec.tls[0].secretName, 'motoparts-tls');
    const plain = ingress(
      '--set',
      'ingress.tls.enabled=false',
      '--set',
      'ingress.tls.clusterIssuer=letsencrypt',
    );
    assert.equal(plain.spec.tls, undefined);
    assert.equal(plain.metadata.annotations?.['cert-manager.io/cluster-issuer'], undefined);
    const res = run('helm', ['template', 'shop', CHART, '--set', 'ingress.tls.secretName=']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /ingress\.tls\.secretName is required/);
  });
});

describe("the API's mail (api.mail)", () => {
  test('disabled: MAIL_DISABLED=1, no SMTP_URL file mounted, no SMTP egress', () => {
    const rendered = template('--set', 'api.mail.disabled=true');
    const objs = objects(rendered);
    const { pod, env } = apiPod(objs);
    assert.equal(env.MAIL_DISABLED.value, '1');
    assert.equal(env.SMTP_URL_FILE, undefined);
    assert.equal(env.MAIL_FROM, undefined);
    const items = pod.volumes.flatMap((v) =>
      (v.projected?.sources ?? []).flatMap((src) => src.secret?.items ?? []),
    );
    assert.deepEqual(
      items.map((i) => i.path).sort(),
      [...SECRET_KEYS, 'SERVICE_TOKEN'].sort(),
      'only the four secrets and the service token are mounted',
    );
    const e = endpoints(objs);
    for (const port of [25, 465, 587])
      assert.ok(!connects(objs, e.api, e.internet, port), `not port ${port}`);
    assertK8sValid(rendered);
  });

  test('the SMTP URL from a Secret of its own; the sender as given; a sender is required', () => {
    const rendered = template(
      '--set',
      'api.mail.smtpUrlSecret.name=motoparts-smtp',
      '--set',
      'api.mail.smtpUrlSecret.key=url',
      '--set',
      'api.mail.from=Orders <orders@shop.example>',
    );
    const { pod, container, env } = apiPod(objects(rendered));
    const from = secretFile(pod, container, env.SMTP_URL_FILE.value);
    assert.deepEqual({ secret: from.secret, key: from.key }, { secret: 'motoparts-smtp', key: 'url' });
    assert.equal(env.MAIL_FROM.value, 'Orders <orders@shop.example>');
    assertK8sValid(rendered);
    const res = run('helm', ['template', 'shop', CHART, '--set', 'api.mail.from=']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /api\.mail\.from is required \(or set api\.mail\.disabled\)/);
  });
});

describe('the API on a staging deployment', () => {
  test('api.stripeTestMode sets STRIPE_TEST_MODE=1, which lets production take a Stripe test key', () => {
    const { env } = apiPod(objects(template('--set', 'api.stripeTestMode=true')));
    assert.equal(env.STRIPE_TEST_MODE.value, '1');
  });
});

describe('the API with autoscaling off', () => {
  for (const [variant, args] of Object.entries(variants)) {
    test(`${variant} values: the Deployment has api.replicas, no HPA, the PDB still lets a drain proceed`, () => {
      const files = [path.join(CHART, 'values.yaml'), ...(args.length ? [PRODUCTION] : [])];
      const replicas = files
        .map((f) => parse(readFileSync(f, 'utf8')).api?.replicas)
        .filter((r) => r !== undefined)
        .at(-1);
      const rendered = template(...args, '--set', 'api.autoscaling.enabled=false');
      const objs = objects(rendered);
      const { deployment } = apiPod(objs);
      assert.equal(deployment.spec.replicas, replicas);
      assert.equal(
        objs.find((o) => o.kind === 'HorizontalPodAutoscaler'),
        undefined,
        'no HPA',
      );
      const pdb = find(objs, 'PodDisruptionBudget', 'shop-motoparts-api');
      assert.ok(pdb.spec.minAvailable < replicas, 'a node drain can always proceed');
      assertK8sValid(rendered);
    });
  }
});

describe('per-team release', () => {
  test('one front end upgrades (and rolls back) alone by its image tag', () => {
    const before = objects(template('-f', PRODUCTION));
    const after = objects(template('-f', PRODUCTION, '--set', 'frontends.dashboard.image.tag=2.1.0'));
    const image = (objs, name) =>
      find(objs, 'Deployment', `shop-motoparts-${name}`).spec.template.spec.containers[0].image;
    assert.equal(image(after, 'dashboard'), 'registry.motoparts.example/motoparts/dashboard:2.1.0');
    for (const name of ['api', 'shell', 'storefront', 'auth']) {
      assert.equal(image(after, name), image(before, name), `${name} is untouched`);
    }
    const remotes = (objs) =>
      JSON.parse(find(objs, 'ConfigMap', 'shop-motoparts-config').data['config.json']).remotes;
    assert.equal(remotes(after).dashboard, 'https://cdn.motoparts.example/remotes/dashboard/2.1.0/');
    assert.equal(remotes(after).storefront, remotes(before).storefront);
  });

  test('the shell names each remote release in config.json: a canary or rollback is a value', () => {
    const objs = objects(template('-f', PRODUCTION, '--set', 'frontends.storefront.version=3.0.9'));
    const config = JSON.parse(find(objs, 'ConfigMap', 'shop-motoparts-config').data['config.json']);
    assert.equal(config.remotes.storefront, 'https://cdn.motoparts.example/remotes/storefront/3.0.9/');
    // Without a CDN each remote is loaded from its own host, served by its own Deployment.
    const local = objects(template());
    const localConfig = JSON.parse(find(local, 'ConfigMap', 'shop-motoparts-config').data['config.json']);
    assert.equal(localConfig.remotes.dashboard, 'https://dashboard.motoparts.example/');
  });

  test('a canary: a release on the CDN or at a URL, for a percentage of browsers; 0 is none', () => {
    const configOf = (...args) =>
      JSON.parse(find(objects(template(...args)), 'ConfigMap', 'shop-motoparts-config').data['config.json']);
    assert.equal(configOf('-f', PRODUCTION).canary, undefined, 'no canary by default');
    const canary = configOf(
      '-f',
      PRODUCTION,
      '--set',
      'frontends.dashboard.canary.version=2.1.0',
      '--set',
      'frontends.dashboard.canary.percent=10',
    );
    assert.deepEqual(canary.canary, {
      dashboard: { url: 'https://cdn.motoparts.example/remotes/dashboard/2.1.0/', percent: 10 },
    });
    // The stable release is unchanged beside it.
    assert.equal(canary.remotes.dashboard, 'https://cdn.motoparts.example/remotes/dashboard/2.0.5/');
    // A URL of its own, with or without a CDN; several remotes at once.
    const byUrl = configOf(
      '--set',
      'frontends.storefront.canary.url=https://canary.motoparts.example/storefront/',
      '--set',
      'frontends.storefront.canary.percent=50',
      '--set',
      'frontends.auth.canary.url=https://canary.motoparts.example/auth/',
      '--set',
      'frontends.auth.canary.percent=100',
    );
    assert.deepEqual(byUrl.canary, {
      storefront: { url: 'https://canary.motoparts.example/storefront/', percent: 50 },
      auth: { url: 'https://canary.motoparts.example/auth/', percent: 100 },
    });
    // Rollback: percent 0 leaves no canary in config.json.
    const rolledBack = configOf(
      '-f',
      PRODUCTION,
      '--set',
      'frontends.dashboard.canary.version=2.1.0',
      '--set',
      'frontends.dashboard.canary.percent=0',
    );
    assert.equal(rolledBack.canary, undefined);
    // What cannot be rendered stops the render, naming the value.
    const failures = {
      'frontends.dashboard.canary.percent must be from 0 to 100': [
        '-f',
        PRODUCTION,
        '--set',
        'frontends.dashboard.canary.version=2.1.0',
        '--set',
        'frontends.dashboard.canary.percent=120',
      ],
      'frontends.dashboard.canary needs a version': ['--set', 'frontends.dashboard.canary.percent=10'],
      'frontends.dashboard.canary.version needs remotes.baseUrl': [
        '--set',
        'frontends.dashboard.canary.version=2.1.0',
        '--set',
        'frontends.dashboard.canary.percent=10',
      ],
    };
    for (const [message, args] of Object.entries(failures)) {
      const res = run('helm', ['template', 'shop', CHART, ...args]);
      assert.notEqual(res.status, 0, message);
      assert.ok(res.stderr.includes(message), `${message}: ${res.stderr}`);
    }
  });

  test('a missing image tag stops the render', () => {
    const res = run('helm', ['template', 'shop', CHART, '--set', 'frontends.auth.image.tag=']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /auth image\.tag is required/);
  });
});

describe('k8scheck', () => {
  test('rejects an unknown field, a wrong type and an unknown kind', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8scheck-'));
    const cases = {
      'unknown field "spec.replica"':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replica: 2\n',
      'cannot unmarshal':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: b\nspec:\n  ports:\n    - port: eighty\n',
      'not a type the Kubernetes API knows': 'apiVersion: v1\nkind: Deploymnt\nmetadata:\n  name: c\n',
    };
    for (const [message, doc] of Object.entries(cases)) {
      const file = path.join(dir, 'doc.yaml');
      writeFileSync(file, doc);
      const res = run('k8scheck', [file]);
      assert.equal(res.status, 1, `${message}: ${res.stdout}`);
      assert.ok(res.stdout.includes(message), `reports ${message}: ${res.stdout}`);
    }
  });
});
