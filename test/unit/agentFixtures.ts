// Fixture payloads of test/fixtures/agents with their placeholders pointed at fixed fake folders.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WS = '/ws/project';
const FIX = path.resolve(__dirname, '../fixtures/agents');

export function fixtureText(rel: string): string {
  return fs.readFileSync(path.join(FIX, rel), 'utf8').replaceAll('/WORKSPACE', WS).replaceAll('/HOME', '/home/u');
}
