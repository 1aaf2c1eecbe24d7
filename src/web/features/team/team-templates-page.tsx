import type { ChecklistTemplateView } from '../../../shared/schemas/checklist';
import type { TeamView } from '../../../shared/schemas/teams';
import { ApiError } from '../../lib/api-client';
import { useMe } from '../../lib/me-context';
import { useDocumentTitle } from '../../lib/use-page-title';
import { LoadFailed } from '../../ui/load-failed';
import { PageLoading } from '../../ui/page-loading';
import { useChecklistTemplate } from './api/get-checklist-template';
import { TemplateEditor } from './components/template-editor';
import { TemplateItemSummary } from './components/template-item-summary';
import { TeamUnavailable } from './team-unavailable';
import { templateValuesOf } from './template-form-values';

/**
 * /app/team/templates: the documents new loans ask for. Everyone in the team
 * reads the list; owners edit it (the API refuses anyone else).
 */
export default function TeamTemplatesPage() {
  useDocumentTitle('Checklist template — Team');
  const me = useMe();
  if (!me.team) return <TeamUnavailable />;
  // A new page per team: another team's template never lingers.
  return <Templates key={me.team.id} team={me.team} />;
}

function Templates({ team }: { team: TeamView }) {
  const template = useChecklistTemplate(team.id);
  const owner = team.role === 'owner';

  if (template.error instanceof ApiError && template.error.status === 404) return <TeamUnavailable />;

  return (
    <>
      <p className="text-sm font-semibold text-navy-700">{team.name}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Checklist template</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Every new loan gets the items of this list that apply to its purpose and property type, due the set number of days after it opens. Loans already open
        keep their own checklists.
        {owner ? null : ' Only the team’s owners change the template.'}
      </p>

      {template.isPending ? <PageLoading /> : null}
      {template.isError ? <LoadFailed message="The checklist template could not be loaded." onRetry={() => void template.refetch()} /> : null}
      {template.data ? (
        <div className="mt-6 space-y-6">
          {template.data.builtIn ? (
            <div role="note" className="rounded-xl border border-navy-100 bg-navy-50 px-4 py-3 text-sm text-navy-900">
              <p className="font-semibold">This is the built-in DSCR checklist.</p>
              <p className="mt-1">Your team has not made its own yet{owner ? ': change anything and save, and new loans use your version.' : '.'}</p>
            </div>
          ) : null}
          {owner ? <TemplateEditor teamId={team.id} template={template.data} /> : <ReadOnlyTemplate template={template.data} />}
        </div>
      ) : null}
    </>
  );
}

function ReadOnlyTemplate({ template }: { template: ChecklistTemplateView }) {
  const { items } = templateValuesOf(template);
  return (
    <section aria-labelledby="template-items">
      <h2 id="template-items" className="text-lg font-semibold text-slate-900">
        Items <span className="font-normal text-slate-600">({items.length})</span>
      </h2>
      <ol aria-labelledby="template-items" className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {items.map((item) => (
          <li key={item.key} className="p-3 sm:p-4">
            <TemplateItemSummary item={item} fallbackLabel={item.key} />
          </li>
        ))}
      </ol>
    </section>
  );
}
