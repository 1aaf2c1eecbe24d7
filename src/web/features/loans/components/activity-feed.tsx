import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { LoadFailed } from '../../../ui/load-failed';
import { Spinner } from '../../../ui/spinner';
import { activityLines, activityNote } from '../activity-text';
import { useActivity } from '../api/list-activity';

/** The loan's activity, newest first, in words; older entries a page at a time. */
export function ActivityFeed({ loanId, people }: { loanId: string; people: ReadonlyMap<string, string> }) {
  const activity = useActivity(loanId);
  if (activity.isPending) {
    return (
      <p className="flex justify-center py-6" aria-busy="true">
        <Spinner />
        <span className="sr-only">Loading the activity</span>
      </p>
    );
  }
  if (activity.isError) return <LoadFailed message="The activity could not be loaded." onRetry={() => void activity.refetch()} />;
  const items = activity.data.pages.flatMap((page) => page.items);
  return (
    <div>
      {items.length === 0 ? <p className="text-sm text-slate-600">Nothing yet.</p> : null}
      <ol className="divide-y divide-slate-100" aria-label="Activity">
        {items.map((item) => {
          const note = activityNote(item);
          return (
            <li key={item.id} className="py-3 text-sm">
              {activityLines(item, people).map((line, index) => (
                <p key={index} className="text-slate-900">
                  {line}
                </p>
              ))}
              {note ? <p className="mt-1 whitespace-pre-line text-slate-700">“{note}”</p> : null}
              <p className="mt-0.5 text-xs text-slate-600">
                <DateTime iso={item.at} format="dateTime" />
                {item.visibility === 'internal' ? ' · Team only' : ''}
              </p>
            </li>
          );
        })}
      </ol>
      {activity.hasNextPage ? (
        <Button variant="secondary" className="mt-3" onClick={() => void activity.fetchNextPage()} disabled={activity.isFetchingNextPage}>
          {activity.isFetchingNextPage ? <Spinner /> : null}
          Load older activity
        </Button>
      ) : null}
    </div>
  );
}
