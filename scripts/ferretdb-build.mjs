// Builds the embedded FerretDB (tools/cmd/ferretdb) from a patched copy of the FerretDB module.
//
// FerretDB v1's SQLite backend creates the unique _id index as `sjson->"_id"` but queries, updates
// and deletes by `sjson->'$._id'`: the same value, a different expression, so SQLite never uses
// the index and every lookup by _id reads the whole collection (≈ 180 ms at 50,000 orders, a
// conditional update ≈ 2 s). It also pushes an _id down only when _id is the filter's only key.
// And its `update` command keeps each statement's read open until the whole command ends, one
// SQLite connection each from a pool of 100: a command of 100 statements or more waited for ever
// for a connection, and so did every later command of every client until a restart.
// Go offers no way to patch one file of a dependency in place (`go build -overlay` refuses files
// in the module cache), so the module is copied out of the cache, patched, and used through a
// `replace` in a build-only copy of tools/go.mod. tools/go.mod itself stays the plain upstream.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const MODULE = 'github.com/FerretDB/FerretDB';

/** The SQL for `{_id: {$in: [...]}}` of strings or ObjectIds (up to 500): the index answers it. */
const ID_IN_CLAUSE = `// idInClause is a MotoParts patch: see scripts/ferretdb-build.mjs in the MotoParts repository.
func idInClause(v any) (string, []any, bool) {
	doc, ok := v.(*types.Document)
	if !ok || doc.Len() != 1 {
		return "", nil, false
	}
	in, err := doc.Get("$in")
	if err != nil {
		return "", nil, false
	}
	arr, ok := in.(*types.Array)
	if !ok || arr.Len() == 0 || arr.Len() > 500 {
		return "", nil, false
	}
	args := make([]any, 0, arr.Len())
	for i := 0; i < arr.Len(); i++ {
		e, _ := arr.Get(i)
		switch e.(type) {
		case string, types.ObjectID:
			args = append(args, string(must.NotFail(sjson.MarshalSingleValue(e))))
		default:
			return "", nil, false
		}
	}
	return fmt.Sprintf(\` WHERE %s IN (?%s)\`, metadata.IDColumn, strings.Repeat(", ?", len(args)-1)), args, true
}
`;

/** Each change: the file in the module, the exact upstream text, what replaces it. */
export const FERRETDB_PATCHES = [
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    find: `IDColumn = DefaultColumn + "->'$._id'"`,
    // The label form is how SQLite reads the index's `->"_id"`: the planner now matches the index.
    replace: `IDColumn = DefaultColumn + "->'_id'"`,
    count: 1,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    // In Query and Explain. The handler filters every returned document again with the whole
    // filter, so pushing the _id down whatever else the filter holds only narrows what is read.
    find: 'if params.Filter.Len() == 1 {',
    replace: 'if params.Filter.Len() >= 1 {',
    count: 2,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    // `{_id: {$in: [ids]}}` as `_id IN (…)`, from the same index: a customer's orders in one read.
    find: `		switch v.(type) {
		case string, types.ObjectID:
`,
    replace: `		if clause, inArgs, ok := idInClause(v); ok {
			whereClause, args = clause, inArgs
		}
		switch v.(type) {
		case string, types.ObjectID:
`,
    count: 2,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    find: `	"github.com/FerretDB/FerretDB/internal/util/must"
)
`,
    replace: `	"github.com/FerretDB/FerretDB/internal/util/must"
)

${ID_IN_CLAUSE}`,
    count: 1,
  },
  {
    file: 'internal/handler/msg_update.go',
    // Inside the loop over the statements: deferred, every statement's read stayed open.
    find: `		closer := iterator.NewMultiCloser()
		defer closer.Close()
`,
    replace: `		closer := iterator.NewMultiCloser()
`,
    count: 1,
  },
  {
    file: 'internal/handler/msg_update.go',
    // Nothing returns between the read and this call, so the read is closed on every path.
    find: `		result, err := common.UpdateDocument(ctx, c, "update", iter, &u)
`,
    replace: `		result, err := common.UpdateDocument(ctx, c, "update", iter, &u)
		// MotoParts patch: this statement's read closed now, not when the command ends.
		closer.Close()
`,
    count: 1,
  },
];

/** The FerretDB version tools/go.mod requires. */
export function ferretVersion(toolsDir) {
  const mod = readFileSync(path.join(toolsDir, 'go.mod'), 'utf8');
  const match = mod.match(/github\.com\/FerretDB\/FerretDB (v\S+)/);
  if (!match) throw new Error(`tools/go.mod does not require ${MODULE}`);
  return match[1];
}

/** Applies the patches to source texts; throws naming the file when upstream no longer matches. */
export function applyPatches(read, write, patches = FERRETDB_PATCHES) {
  for (const p of patches) {
    const text = read(p.file);
    const found = text.split(p.find).length - 1;
    if (found !== p.count) {
      throw new Error(`FerretDB patch: expected ${p.count}× "${p.find}" in ${p.file}, found ${found}`);
    }
    write(p.file, text.split(p.find).join(p.replace));
  }
}

/** Changes when the version, the patches or our main package change: the binary is rebuilt then. */
function ferretStamp(toolsDir) {
  const main = readFileSync(path.join(toolsDir, 'cmd', 'ferretdb', 'main.go'), 'utf8');
  return createHash('sha256')
    .update(JSON.stringify({ version: ferretVersion(toolsDir), patches: FERRETDB_PATCHES, main }))
    .digest('hex');
}

/** Files copied from the read-only module cache stay read-only; the copy must be writable. */
function makeWritable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
}

/** Runs a go command in `cwd`; its stdout, or an error naming the command (its stderr is shown). */
export function go(args, cwd) {
  const res = spawnSync('go', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (res.status !== 0) throw new Error(`go ${args.join(' ')} failed (see output above)`);
  return res.stdout;
}

/** Where the Go module cache holds the FerretDB version tools/go.mod pins (downloaded if missing). */
export function ferretModuleDir(toolsDir) {
  const version = ferretVersion(toolsDir);
  return JSON.parse(go(['mod', 'download', '-json', `${MODULE}@${version}`], toolsDir)).Dir;
}

/**
 * Builds `<binDir>/ferretdb` with the patches applied, unless the stamp beside it says it is
 * current. The patched module copy and the build's go.mod live under `workDir` while it builds.
 */
export function buildFerretDB({ toolsDir, binDir, workDir, onBuild = () => {} }) {
  const stamp = ferretStamp(toolsDir);
  const stampFile = path.join(binDir, 'ferretdb.stamp');
  if (existsSync(path.join(binDir, 'ferretdb')) && existsSync(stampFile)) {
    if (readFileSync(stampFile, 'utf8').trim() === stamp) return false;
  }
  onBuild();
  const moduleDir = ferretModuleDir(toolsDir);
  // A folder and a binary name of this process's own: an `npm test` beside a running `npm start`
  // may rebuild at the same moment, and the binary is swapped in by one atomic rename.
  const work = path.join(workDir, String(process.pid));
  const src = path.join(work, path.basename(moduleDir));
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    cpSync(moduleDir, src, { recursive: true });
    makeWritable(src);
    applyPatches(
      (file) => readFileSync(path.join(src, file), 'utf8'),
      (file, text) => writeFileSync(path.join(src, file), text),
    );
    const modfile = path.join(work, 'go.mod');
    const gomod = readFileSync(path.join(toolsDir, 'go.mod'), 'utf8');
    writeFileSync(modfile, `${gomod.trimEnd()}\n\nreplace ${MODULE} => ${src}\n`);
    writeFileSync(path.join(work, 'go.sum'), readFileSync(path.join(toolsDir, 'go.sum')));
    mkdirSync(binDir, { recursive: true });
    const built = path.join(binDir, `ferretdb.${process.pid}`);
    go(['build', `-modfile=${modfile}`, '-o', built, './cmd/ferretdb'], toolsDir);
    renameSync(built, path.join(binDir, 'ferretdb'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  writeFileSync(stampFile, `${stamp}\n`);
  return true;
}
