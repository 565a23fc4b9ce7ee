import type { Finding, FindingStatus } from './finding';

const LABEL: Record<FindingStatus, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', skipped: 'skip' };

/** The findings as text for a terminal: one line each, then each fix's instruction and JSON, indented. */
export function formatFindings(findings: Finding[]): string {
  const lines: string[] = [];
  for (const finding of findings) {
    lines.push(`[${LABEL[finding.status]}] ${finding.check}: ${finding.message}`);
    if (finding.fix) {
      lines.push(`       fix: ${finding.fix.apply}`);
      if (finding.fix.json !== undefined) {
        lines.push(...readableJson(finding.fix.json).split('\n').map((line) => `       ${line}`));
      }
    }
  }
  const count = (status: FindingStatus) => findings.filter((finding) => finding.status === status).length;
  lines.push(`${count('fail')} failed, ${count('warn')} warning(s), ${count('ok')} ok, ${count('skipped')} skipped.`);
  return lines.join('\n');
}

/** JSON indented by 2, with arrays of strings and numbers kept on one line (`["GET", "PUT"]`). */
function readableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\[\s+((?:"[^"\n]*"|-?[\d.]+)(?:,\s+(?:"[^"\n]*"|-?[\d.]+))*)\s+\]/g, (_, items: string) =>
    `[${items.split(/,\n\s*/).join(', ')}]`,
  );
}
