import { Button } from '../../../ui/button';
import { useToast } from '../../../ui/toast';

/** Ten one-time codes, shown once: copy or download them before leaving. */
export function BackupCodes({ codes, accountEmail }: { codes: string[]; accountEmail: string }) {
  const toast = useToast();

  function download() {
    const url = URL.createObjectURL(new Blob([`Backup codes for ${accountEmail}\nEach code works once.\n\n${codes.join('\n')}\n`], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'backup-codes.txt' });
    link.click();
    URL.revokeObjectURL(url);
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast({ title: 'Copied', description: 'Paste the codes somewhere safe, such as a password manager.' });
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'Select the codes and copy them by hand, or download them.' });
    }
  }

  return (
    <div>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-xl border border-slate-200 bg-slate-50 p-4 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code} className="rounded bg-white px-2 py-1 text-center tracking-wider">
            {code}
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button type="button" variant="secondary" onClick={download}>
          Download codes
        </Button>
      </div>
    </div>
  );
}
