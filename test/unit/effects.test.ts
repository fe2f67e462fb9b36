// Effect classes of tool calls (what a rewind will not undo): a table of realistic shell
// commands, then tools, MCP, overrides, and the git compensations with HEADs looked up.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claudeToolKind } from '../../src/agents/claude/toolKind';
import { parseConfig } from '../../src/core/storeFiles/config';
import { type ClassifyContext, classifyCall } from '../../src/core/effects/classifyCall';
import { classifyShell } from '../../src/core/effects/classifyShell';
import { completeCompensation } from '../../src/core/effects/compensation';
import type { HeadInfo } from '../../src/core/git/repo';
import { parseScript, splitChain, words } from '../../src/core/shell/parse';

/** A Claude Code tool call classified the way the recorder does: through the Claude mapping. */
const classify = (tool: string, input: unknown, ctx?: ClassifyContext) => classifyCall(tool, claudeToolKind(tool, input), input, ctx);

type Row = [command: string, effect: 'none' | 'rewindable' | 'compensatable' | 'irreversible', severity?: 'high' | 'low'];

const WS = '/home/ana/app';

const TABLE: Row[] = [
  // plainly local, read-only
  ['ls -la', 'none'],
  ['cat package.json | jq .version', 'none'],
  ['grep -rn "TODO" src | head -20', 'none'],
  ['rg --files | wc -l', 'none'],
  ['find . -name "*.ts" -not -path "./node_modules/*"', 'none'],
  ['git status', 'none'],
  ['git --no-pager log --oneline -10', 'none'],
  ['git diff HEAD~1 -- src/', 'none'],
  ['git -C ../other show HEAD:README.md', 'none'],
  ['git fetch origin', 'none'],
  ['git add -A', 'none'],
  ['git push --dry-run origin main', 'none'],
  ['git branch', 'none'],
  ['git branch -a --contains HEAD', 'none'],
  ['git stash list', 'none'],
  ['git config --get user.email', 'none'],
  ['git remote -v', 'none'],
  ['npm test', 'none'],
  ['npm run build', 'none'],
  ['npm run test:unit -- --watch=false', 'none'],
  ['npm install', 'none'],
  ['npm ci --no-audit', 'none'],
  ['pnpm lint', 'none'],
  ['yarn build:prod', 'none'],
  ['npx tsc --noEmit -p .', 'none'],
  ['npx prettier --check .', 'none'],
  ['npx -y eslint src', 'none'],
  ['python -m pytest -q tests/', 'none'],
  ['python3 -m pip install -r requirements.txt', 'none'],
  ['pip install requests', 'none'],
  ['cargo test --all', 'none'],
  ['cargo build --release', 'none'],
  ['go test ./...', 'none'],
  ['make', 'none'],
  ['make -j8 test', 'none'],
  ['node --test test/', 'none'],
  ['node --version', 'none'],
  ['curl -s https://api.github.com/repos/o/r', 'none'],
  ['curl -fsSL -o install.sh https://example.com/install.sh', 'none'],
  ['curl -X GET https://api.example.com/items', 'none'],
  ['wget https://example.com/file.tar.gz', 'none'],
  ['kubectl get pods -n prod', 'none'],
  ['kubectl apply --dry-run=client -f deploy.yaml', 'none'],
  ['terraform plan -out tf.plan', 'none'],
  ['docker build -t app .', 'none'],
  ['docker compose up -d', 'none'],
  ['gh pr view 42 --json title', 'none'],
  ['gh pr list', 'none'],
  ['gh api repos/o/r/pulls', 'none'],
  ['aws s3 ls s3://bucket/', 'none'],
  ['aws ec2 describe-instances --region eu-west-1', 'none'],
  ['psql -c "select count(*) from users"', 'none'],
  ['echo "done; git push" && ls', 'none'],
  ['# git push origin main\nls', 'none'],
  ['ls 2>&1 | tee /dev/null', 'none'],
  ['time npm test', 'none'],
  ['timeout 60 npm test', 'none'],
  ['FORCE_COLOR=0 CI=1 npm test', 'none'],
  ['command -v git', 'none'],
  ['for f in src/*.ts; do wc -l "$f"; done', 'none'],
  ['[ -f .env ] || echo missing', 'none'],
  ['systemctl status nginx', 'none'],
  // workspace file changes: captured by the scan
  ['rm -rf build && mkdir build', 'rewindable'],
  ['mv src/old.ts src/new.ts', 'rewindable'],
  ["sed -i 's/foo/bar/g' src/a.ts", 'rewindable'],
  ['echo "export {}" > src/index.ts', 'rewindable'],
  ["cat > notes.md <<'EOF'\n# heading; git push\nEOF", 'rewindable'],
  ['touch a && chmod +x a', 'rewindable'],
  ['git checkout -- src/a.ts', 'rewindable'],
  ['git restore src/', 'rewindable'],
  ['git rm --cached secret.txt && git mv a.ts b.ts', 'rewindable'],
  ['git stash', 'rewindable'],
  ['git clean -fd', 'rewindable'],
  ['perl -pi -e "s/a/b/" x.txt', 'rewindable'],
  ['tar xzf vendor.tgz', 'rewindable'],
  ['rsync -a src/ backup/', 'rewindable'],
  // compensatable
  ['git commit -m "fix: retry logic"', 'compensatable', 'high'],
  ['git add -A && git commit -m wip', 'compensatable', 'high'],
  ['git -C repo -c user.name=x commit -m "msg; rm -rf"', 'compensatable', 'high'],
  ['cd sub && git commit --amend --no-edit', 'compensatable', 'high'],
  ['git merge feature', 'compensatable', 'high'],
  ['git rebase -i HEAD~3', 'compensatable', 'high'],
  ['git pull --rebase', 'compensatable', 'high'],
  ['git reset --hard HEAD~1', 'compensatable', 'high'],
  ['git cherry-pick abc1234', 'compensatable', 'high'],
  ['git tag v1.2.0', 'compensatable', 'high'],
  ['git checkout -b feature/login', 'compensatable', 'high'],
  ['git switch main', 'compensatable', 'high'],
  ['git branch experiment', 'compensatable', 'high'],
  ['git config user.name "Agent"', 'compensatable', 'high'],
  ['npm install -g typescript', 'compensatable', 'high'],
  ['sudo apt-get install -y jq', 'compensatable', 'high'],
  ['npm version patch', 'compensatable', 'high'],
  // irreversible, known
  ['git push origin main', 'irreversible', 'high'],
  ['git push -u origin HEAD --force-with-lease', 'irreversible', 'high'],
  ['cd repo && git push', 'irreversible', 'high'],
  ['git commit -am x && git push', 'irreversible', 'high'],
  ['git -c http.extraHeader="A: b" --git-dir=.git push', 'irreversible', 'high'],
  ['git branch -D old', 'irreversible', 'high'],
  ['git stash drop', 'irreversible', 'high'],
  ['git clean -fdx', 'irreversible', 'high'],
  ['git send-email --to=list@example.com 0001.patch', 'irreversible', 'high'],
  ['npm publish --access public', 'irreversible', 'high'],
  ['pnpm -r publish', 'irreversible', 'high'],
  ['yarn npm publish', 'irreversible', 'high'],
  ['cargo publish', 'irreversible', 'high'],
  ['twine upload dist/*', 'irreversible', 'high'],
  ['python -m twine upload dist/*', 'irreversible', 'high'],
  ['curl -X POST https://hooks.slack.com/x -d \'{"text":"hi"}\'', 'irreversible', 'high'],
  ['curl -sSX DELETE https://api.example.com/items/3', 'irreversible', 'high'],
  ['curl --json \'{"a":1}\' https://api.example.com', 'irreversible', 'high'],
  ['curl -F file=@report.pdf https://upload.example.com', 'irreversible', 'high'],
  ['wget --post-data="a=1" https://example.com/form', 'irreversible', 'high'],
  ['http POST api.example.com/items name=x', 'irreversible', 'high'],
  ['ssh deploy@prod "systemctl restart app"', 'irreversible', 'high'],
  ['scp build.tgz deploy@prod:/srv/', 'irreversible', 'high'],
  ['rsync -avz dist/ user@host:/var/www/', 'irreversible', 'high'],
  ['kubectl apply -f k8s/', 'irreversible', 'high'],
  ['kubectl -n prod rollout restart deploy/api', 'irreversible', 'high'],
  ['helm upgrade --install api ./chart', 'irreversible', 'high'],
  ['terraform apply -auto-approve', 'irreversible', 'high'],
  ['terraform -chdir=infra destroy', 'irreversible', 'high'],
  ['pulumi up --yes', 'irreversible', 'high'],
  ['docker push registry.example.com/app:1.0', 'irreversible', 'high'],
  ['docker buildx build --push -t app .', 'irreversible', 'high'],
  ['docker compose down -v', 'irreversible', 'high'],
  ['gh pr create --title "Fix" --body "Closes #3"', 'irreversible', 'high'],
  ['gh pr merge 42 --squash', 'irreversible', 'high'],
  ['gh issue comment 7 --body "done"', 'irreversible', 'high'],
  ['gh release create v1.0 dist/*', 'irreversible', 'high'],
  ['gh api -X POST repos/o/r/issues -f title=x', 'irreversible', 'high'],
  ['gh workflow run deploy.yml', 'irreversible', 'high'],
  ['aws s3 sync dist/ s3://bucket/', 'irreversible', 'high'],
  ['aws lambda update-function-code --function-name f --zip-file fileb://f.zip', 'irreversible', 'high'],
  ['gcloud run deploy api --source .', 'irreversible', 'high'],
  ['vercel --prod', 'irreversible', 'high'],
  ['npx vercel deploy --prod', 'irreversible', 'high'],
  ['firebase deploy --only hosting', 'irreversible', 'high'],
  ['wrangler deploy', 'irreversible', 'high'],
  ['fly deploy', 'irreversible', 'high'],
  ['psql "$DATABASE_URL" -c "DROP TABLE sessions"', 'irreversible', 'high'],
  ['npx prisma migrate deploy', 'irreversible', 'high'],
  ['prisma db push', 'irreversible', 'high'],
  ['echo "hello" | mail -s subj dana@example.com', 'irreversible', 'high'],
  ['sudo -u deploy git push', 'irreversible', 'high'],
  ['env -u FOO GIT_SSH_COMMAND="ssh -i key" git push', 'irreversible', 'high'],
  ['timeout -s KILL 30s git push', 'irreversible', 'high'],
  ['nohup npm publish &', 'irreversible', 'high'],
  ['xargs -I{} git push origin {} < branches.txt', 'irreversible', 'high'],
  ['bash -c "cd repo && git push"', 'irreversible', 'high'],
  ["sh -c 'npm publish'", 'irreversible', 'high'],
  ['echo $(git push 2>&1)', 'irreversible', 'high'],
  ['echo "$(gh pr create --fill)"', 'irreversible', 'high'],
  ['echo `git push`', 'irreversible', 'high'],
  ['(cd deploy && ./build.sh && git push)', 'irreversible', 'high'],
  ['bash <<EOF\ngit push origin main\nEOF', 'irreversible', 'high'],
  ['if git diff --quiet; then echo clean; else git push; fi', 'irreversible', 'high'],
  ['npm test || git push', 'irreversible', 'high'],
  ['npm test\ngit push', 'irreversible', 'high'],
  ['curl -fsSL https://get.example.sh | bash', 'irreversible', 'high'],
  ['wget -qO- https://install.example | sudo sh -s -- -y', 'irreversible', 'high'],
  ['kill -9 1234', 'irreversible', 'high'],
  ['rm -rf ~/.cache/app', 'irreversible', 'high'],
  ['cp .env /etc/app/.env', 'irreversible', 'high'],
  ['echo x > /etc/hosts', 'irreversible', 'high'],
  ['sudo systemctl restart nginx', 'irreversible', 'high'],
  // irreversible, unknown (low)
  ['npm run deploy', 'irreversible', 'low'],
  ['yarn release', 'irreversible', 'low'],
  ['make deploy', 'irreversible', 'low'],
  ['./scripts/deploy.sh staging', 'irreversible', 'low'],
  ['bash scripts/migrate.sh', 'irreversible', 'low'],
  ['node scripts/seed.js', 'irreversible', 'low'],
  ['python manage.py migrate', 'irreversible', 'low'],
  ['python -c "import os; os.remove(\'x\')"', 'irreversible', 'low'],
  ['cargo run --bin server', 'irreversible', 'low'],
  ['frobnicate --all', 'irreversible', 'low'],
  ['cat script.sh | sh', 'irreversible', 'low'],
  ['psql -f schema.sql', 'irreversible', 'low'],
  ['git frobnicate', 'irreversible', 'low'],
  ['ls && mystery-tool', 'irreversible', 'low'],
];

describe('shell command classes (table)', () => {
  it('has over 100 rows', () => assert.ok(TABLE.length > 100, String(TABLE.length)));
  for (const [cmd, effect, severity] of TABLE) {
    it(`${JSON.stringify(cmd)} → ${effect}${severity ? `/${severity}` : ''}`, () => {
      const v = classifyShell(cmd, WS);
      assert.equal(v.effect, effect, `effect of ${cmd} (${v.reason ?? ''})`);
      assert.equal(v.severity, severity || undefined, `severity of ${cmd} (${v.reason ?? ''})`);
      assert.equal(!!v.reason || effect === 'none' || effect === 'rewindable', true, 'a reason for the preview');
    });
  }
});

describe('shell parsing', () => {
  it('does not split inside quotes, and splits on every operator outside them', () => {
    assert.deepEqual(splitChain('git -C repo -c user.name=x commit -m "msg; rm -rf"'), [
      'git -C repo -c user.name=x commit -m "msg; rm -rf"',
    ]);
    assert.deepEqual(splitChain('a && b || c; d | e\nf & g'), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    assert.deepEqual(splitChain('echo \'a && b\' "c | d" e\\;f'), ['echo \'a && b\' "c | d" e\\;f']);
  });
  it('reads 2>&1 and &> as redirections, not as background operators', () => {
    assert.deepEqual(splitChain('npm test 2>&1 | tail -5'), ['npm test', 'tail -5']);
    assert.deepEqual(
      parseScript('make &> build.log')[0]!.items.map((i) => ('words' in i ? i.words : [])),
      [['make']],
    );
  });
  it('removes quotes and escapes, drops assignments', () => {
    assert.deepEqual(words(`FOO=1 git commit -m "a \\"b\\" c" 'd e' f\\ g`), ['git', 'commit', '-m', 'a "b" c', 'd e', 'f g']);
    assert.deepEqual(words("echo $'a\\nb'"), ['echo', 'a\nb']);
  });
  it('keeps heredoc bodies out of the command and classifies them when a shell reads them', () => {
    const s = parseScript("cat > x <<'EOF'\ngit push; npm publish\nEOF\necho ok");
    assert.equal(s.length, 2);
    const first = s[0]!.items[0]!;
    assert.ok('words' in first);
    assert.deepEqual(first.words, ['cat']);
    assert.deepEqual(first.writes, ['x']);
    assert.deepEqual(first.heredocs, ['git push; npm publish']);
    assert.equal(classifyShell("cat > x <<'EOF'\ngit push\nEOF", WS).effect, 'rewindable');
    assert.equal(classifyShell('sh <<-EOF\n\tgit push\n\tEOF', WS).effect, 'irreversible');
  });
  it('parses nested substitutions and subshells', () => {
    assert.equal(classifyShell('echo "$(echo "$(git push)")"', WS).effect, 'irreversible');
    assert.equal(classifyShell('diff <(git show HEAD:a) a', WS).effect, 'none');
    assert.equal(classifyShell('x=$((1 + 2)); echo $x', WS).effect, 'none');
  });
  it('strips comments only at word starts', () => {
    assert.equal(classifyShell('echo a#b && ls # git push', WS).effect, 'none');
    assert.equal(classifyShell('echo "#" ; git push', WS).effect, 'irreversible');
  });
});

describe('git compensations', () => {
  const heads = (map: Record<string, HeadInfo | null>) => (dir: string) => map[dir] ?? null;
  it('a commit compensates with reset --soft to the HEAD recorded before it, in the folder git -C names', () => {
    const c = classify('Bash', { command: 'git -C repo -c user.name=x commit -m "msg; rm -rf"' }, { cwd: WS });
    assert.equal(c.effect, 'compensatable');
    assert.equal(c.gitCommitIn, `${WS}/repo`);
    const comp = completeCompensation(c, heads({ [`${WS}/repo`]: { sha: 'abc123', branch: 'main' } }));
    assert.equal(comp, `git -C ${WS}/repo reset --soft abc123`);
  });
  it('follows cd, nested -C, env -C and subshells', () => {
    assert.equal(classify('Bash', { command: 'cd packages/a && git commit -m x' }, { cwd: WS }).gitCommitIn, `${WS}/packages/a`);
    assert.equal(classify('Bash', { command: 'git -C a -C b commit -m x' }, { cwd: WS }).gitCommitIn, `${WS}/a/b`);
    assert.equal(classify('Bash', { command: 'env -C /srv/repo git commit -m x' }, { cwd: WS }).gitCommitIn, '/srv/repo');
    assert.equal(
      classify('Bash', { command: '(cd x && git commit -m m); git commit -m n' }, { cwd: WS })
        .git?.map((g) => g.dir)
        .join(','),
      `${WS}/x,${WS}`,
    );
    assert.equal(classify('Bash', { command: 'cd "$DIR" && git commit -m x' }, { cwd: WS }).gitCommitIn, undefined);
  });
  it('keeps git location options in the compensation', () => {
    const c = classify('Bash', { command: 'git --git-dir=/x/.git --work-tree /x commit -m a' }, { cwd: WS });
    assert.equal(
      completeCompensation(c, () => ({ sha: 'f00', branch: null })),
      `git -C ${WS} --git-dir=/x/.git --work-tree=/x reset --soft f00`,
    );
  });
  it('two commits in one repository reset to the HEAD before the first; the first commit ever un-commits', () => {
    const c = classify('Bash', { command: 'git commit -m a && git commit -m b' }, { cwd: WS });
    assert.equal(
      completeCompensation(c, () => ({ sha: 'aaa', branch: 'main' })),
      `git -C ${WS} reset --soft aaa`,
    );
    assert.equal(
      completeCompensation(c, () => ({ sha: null, branch: 'main' })),
      `git -C ${WS} update-ref -d HEAD`,
    );
    assert.equal(
      completeCompensation(c, () => null),
      undefined,
      'not a repository: no suggestion',
    );
  });
  it('a branch switch goes back to the branch before; a new branch is deleted after switching back', () => {
    const sw = classify('Bash', { command: 'git switch main' }, { cwd: WS });
    assert.equal(
      completeCompensation(sw, () => ({ sha: 'a1', branch: 'dev' })),
      `git -C ${WS} switch dev`,
    );
    const nb = classify('Bash', { command: 'git checkout -b feat' }, { cwd: WS });
    assert.equal(
      completeCompensation(nb, () => ({ sha: 'a1', branch: 'dev' })),
      `git -C ${WS} switch dev && git -C ${WS} branch -D feat`,
    );
    assert.equal(
      completeCompensation(sw, () => ({ sha: 'a1', branch: null })),
      `git -C ${WS} checkout --detach a1`,
    );
  });
  it('undoes several units in reverse order', () => {
    const c = classify('Bash', { command: 'git commit -m a && git tag v1' }, { cwd: WS });
    assert.equal(
      completeCompensation(c, () => ({ sha: 'c0', branch: 'main' })),
      `git -C ${WS} tag -d v1 && git -C ${WS} reset --soft c0`,
    );
    assert.equal(classifyShell('git tag v2', WS).compensation, `git -C ${WS} tag -d v2`);
    assert.equal(classifyShell('apt-get install -y jq ripgrep', WS).compensation, 'apt-get remove jq ripgrep');
  });
  it('merges and resets compensate with a mixed reset (the files come back with the file rewind)', () => {
    const c = classify('Bash', { command: 'git reset --hard origin/main' }, { cwd: WS });
    assert.equal(
      completeCompensation(c, () => ({ sha: 'beef', branch: 'main' })),
      `git -C ${WS} reset --mixed beef`,
    );
    assert.equal(classifyShell('git reset HEAD src/a.ts', WS).effect, 'none', 'unstaging paths');
  });
});

describe('tools, MCP and overrides', () => {
  it('file tools are rewindable; reads, searches, fetches and todos are none', () => {
    for (const t of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']) assert.equal(classify(t, { file_path: '/a' }).effect, 'rewindable');
    for (const t of ['Read', 'Grep', 'Glob', 'WebFetch', 'WebSearch', 'TodoWrite', 'Task', 'LS']) {
      const c = classify(t, {});
      assert.equal(c.effect, 'none', t);
      assert.equal(c.severity, undefined);
    }
  });
  it('MCP tools are irreversible unless configured; read-like names are low', () => {
    const send = classify('mcp__mail__send_message', { to: 'dana@example.com', body: 'hi' });
    assert.equal(send.effect, 'irreversible');
    assert.equal(send.severity, 'high');
    assert.match(send.summary, /^mail send_message /);
    const get = classify('mcp__github__get_issue', { number: 3 });
    assert.deepEqual([get.effect, get.severity], ['irreversible', 'low']);
    assert.deepEqual([classify('SomethingNew', {}).effect, classify('SomethingNew', {}).severity], ['irreversible', 'low']);
  });
  it('overrides by exact tool name and glob; a glob never makes a read-only tool listed', () => {
    const overrides = parseConfig({
      effects: [
        { tool: 'mcp__github__*', effect: 'none' },
        { tool: 'mcp__mail__draft', effect: 'rewindable' },
        { tool: '*', effect: 'irreversible', severity: 'low' },
        { tool: 'Bogus', effect: 'explode' },
      ],
    }).effects;
    assert.equal(overrides.length, 3, 'invalid entries dropped');
    assert.equal(classify('mcp__github__create_issue', {}, { overrides }).effect, 'none');
    assert.equal(classify('mcp__mail__draft', {}, { overrides }).effect, 'rewindable');
    assert.deepEqual(
      [classify('mcp__mail__send', {}, { overrides }).effect, classify('mcp__mail__send', {}, { overrides }).severity],
      ['irreversible', 'low'],
    );
    assert.equal(classify('Read', { file_path: '/a' }, { overrides }).effect, 'none');
    assert.equal(classify('Grep', { pattern: 'x' }, { overrides }).effect, 'none');
  });
  it('overrides by command pattern apply to each simple command of a chain, also inside bash -c', () => {
    const overrides = parseConfig({
      effects: [
        { command: '^\\./scripts/deploy-staging\\.sh', effect: 'irreversible', compensation: './scripts/rollback.sh' },
        { command: '^npm run deploy', effect: 'none' },
        { command: '([', effect: 'none' },
      ],
    }).effects;
    const a = classify('Bash', { command: 'npm test && ./scripts/deploy-staging.sh --fast' }, { cwd: WS, overrides });
    assert.deepEqual(
      [a.effect, a.severity, a.compensation],
      ['irreversible', 'high', './scripts/rollback.sh'],
      'the compensation the user configured is kept',
    );
    assert.equal(classify('Bash', { command: 'npm run deploy' }, { cwd: WS, overrides }).effect, 'none');
    // The override covers its own part only: the push in the same chain is still listed.
    assert.equal(classify('Bash', { command: 'npm run deploy && git push' }, { cwd: WS, overrides }).effect, 'irreversible');
    assert.equal(classify('Bash', { command: 'bash -c "npm run deploy"' }, { cwd: WS, overrides }).effect, 'none');
    const comp = parseConfig({ effects: [{ command: '^make release$', effect: 'compensatable', compensation: 'make unrelease' }] }).effects;
    assert.equal(classify('Bash', { command: 'make release' }, { cwd: WS, overrides: comp }).compensation, 'make unrelease');
    assert.equal(classify('Bash', { command: 'ls' }, { cwd: WS, overrides }).effect, 'none', 'a bad pattern matches nothing');
  });
  it('a tool override wins over the shell rules', () => {
    const overrides = parseConfig({ effects: [{ tool: 'Bash', effect: 'none' }] }).effects;
    assert.equal(classify('Bash', { command: 'git push' }, { overrides }).effect, 'none');
  });
});

describe('PowerShell', () => {
  const ps = (command: string) => classify('PowerShell', { command }, { cwd: 'C:\\work\\app' });
  it('classifies cmdlets and native commands', () => {
    assert.equal(ps('Get-ChildItem -Recurse | Select-Object -First 5').effect, 'none');
    assert.equal(ps('Remove-Item -Recurse build').effect, 'rewindable');
    assert.equal(ps('Invoke-RestMethod -Method Post -Uri https://x -Body $b').effect, 'irreversible');
    assert.equal(ps('Invoke-WebRequest https://example.com -OutFile x.html').effect, 'none');
    assert.equal(ps('git push origin main; Write-Host done').effect, 'irreversible');
    assert.equal(ps('Send-MailMessage -To a@b.c -Subject x').severity, 'high');
    assert.equal(ps('git commit -m "a `"quoted`" msg"').effect, 'compensatable');
  });
});

describe('generic tool kinds (no agent tool names)', () => {
  it('remote tools are irreversible unless configured; read-like names are low', () => {
    const send = classifyCall('send_message', { kind: 'remote', server: 'mail', name: 'send_message' }, { to: 'dana@example.com' });
    assert.deepEqual([send.effect, send.severity, send.summary], ['irreversible', 'high', 'mail send_message {"to":"dana@example.com"}']);
    const get = classifyCall('getIssue', { kind: 'remote', name: 'getIssue' }, {});
    assert.deepEqual([get.effect, get.severity, get.summary], ['irreversible', 'low', 'getIssue']);
    const overrides = parseConfig({ effects: [{ tool: 'send_*', effect: 'none' }] }).effects;
    assert.equal(classifyCall('send_message', { kind: 'remote', name: 'send_message' }, {}, { overrides }).effect, 'none');
  });
  it('reads are none, even under a glob that lists every other tool', () => {
    const overrides = parseConfig({ effects: [{ tool: '*', effect: 'irreversible' }] }).effects;
    const c = classifyCall('view_file', { kind: 'read', summary: '/w/a.ts' }, { path: 'a.ts' }, { overrides });
    assert.deepEqual([c.effect, c.summary], ['none', '/w/a.ts']);
    assert.equal(classifyCall('fetch_page', { kind: 'read' }, { url: 'https://x.test' }).summary, '{"url":"https://x.test"}');
    assert.equal(
      classifyCall('frobnicate', { kind: 'other' }, {}, { overrides }).effect,
      'irreversible',
      'the glob still lists an unknown tool',
    );
  });
  it('unknown tools are irreversible/low; file writes rewindable; shell commands by what they run', () => {
    const o = classifyCall('frobnicate', { kind: 'other' }, { a: 1 });
    assert.deepEqual([o.effect, o.severity, o.reason, o.summary], ['irreversible', 'low', 'unknown tool "frobnicate"', '{"a":1}']);
    const w = classifyCall('createFile', { kind: 'file-write', paths: ['/w/a', '/w/b'] }, { content: 'x' });
    assert.deepEqual([w.effect, w.summary], ['rewindable', '/w/a, /w/b']);
    const sh = classifyCall('runInTerminal', { kind: 'shell', command: 'git commit -m x', dialect: 'sh' }, {}, { cwd: WS });
    assert.deepEqual([sh.effect, sh.summary, sh.gitCommitIn], ['compensatable', 'git commit -m x', WS]);
    const ps = classifyCall('terminal', { kind: 'shell', command: 'Remove-Item build', dialect: 'powershell' }, {}, { cwd: WS });
    assert.equal(ps.effect, 'rewindable');
  });
});
