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
        lines.push(...JSON.stringify(finding.fix.json, null, 2).split('\n').map((line) => `       ${line}`));
      }
    }
  }
  const count = (status: FindingStatus) => findings.filter((finding) => finding.status === status).length;
  lines.push(`${count('fail')} failed, ${count('warn')} warning(s), ${count('ok')} ok, ${count('skipped')} skipped.`);
  return lines.join('\n');
}
