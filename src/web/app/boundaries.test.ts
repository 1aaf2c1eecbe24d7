import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import rules between the web app's folders (eslint.config.js, `coverly/web-boundaries`), run through ESLint's own API.
const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'coverly/web-boundaries').map((message) => message.message);
}

describe('the web app’s import boundaries', () => {
  it('refuse a feature importing another feature’s files', async () => {
    const errors = await boundaryErrors('src/web/features/loans/x.ts', "export { movesFor } from '../pipeline/format';\n");
    expect(errors).toEqual(["A feature may not import another feature's files (features/pipeline/format): move what both need to src/web/ui or src/web/lib."]);
    expect(await boundaryErrors('src/web/features/loans/components/x.tsx', "import { useMembers } from '../../team/api/list-members';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/web/features/loans/x.ts', "export const page = () => import('../pipeline/pipeline-page');\n")).toHaveLength(1);
  });

  it('refuse a feature importing the app shell', async () => {
    expect(await boundaryErrors('src/web/features/team/x.ts', "import { appRoutes } from '../../app/app-routes';\n")).toEqual([
      'A feature may not import the app shell (src/web/app): what features need from it lives in src/web/lib (useMe, the query client, AppRoute).',
    ]);
  });

  it('refuse ui/ and lib/ importing a feature or the shell', async () => {
    expect(await boundaryErrors('src/web/ui/x.tsx', "import { FinalCta } from '../features/marketing/components/final-cta';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/web/lib/x.ts', "import { AppHeader } from '../app/shell/app-header';\n")).toHaveLength(1);
  });

  it('let a feature import its own files, ui/, lib/ and shared/, and the shell compose the features', async () => {
    const own = [
      "import { loanQueryOptions } from '../api/get-loan';",
      "import { Button } from '../../../ui/button';",
      "import { useMe } from '../../../lib/me-context';",
      "import { formatCents } from '../../../../shared/money';",
      'export { loanQueryOptions, Button, useMe, formatCents };',
    ].join('\n');
    expect(await boundaryErrors('src/web/features/loans/components/x.tsx', own)).toEqual([]);
    expect(await boundaryErrors('src/web/app/x.ts', "export { loansRoutes } from '../features/loans/routes';\n")).toEqual([]);
  });
});
