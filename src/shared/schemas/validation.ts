import type { z } from 'zod';
import type { FieldIssue } from '../errors';

/** Flattens zod issues into one entry per bad field, as the problem+json `errors` list. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // Named where it is: an unknown key inside items[0] is `items.0.colour`, not a top-level `colour`.
      for (const key of issue.keys) issues.push({ field: [...issue.path, key].join('.'), message: 'Unknown field' });
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : '(body)';
    if (seen.has(field)) continue;
    seen.add(field);
    issues.push({ field, message: issue.message });
  }
  return issues;
}
