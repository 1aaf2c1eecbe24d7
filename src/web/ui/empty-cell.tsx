/** A table cell's "nothing here": a dash to the eye, "None" to a screen reader. */
export function EmptyCell() {
  return (
    <>
      <span aria-hidden="true" className="text-slate-500">
        —
      </span>
      <span className="sr-only">None</span>
    </>
  );
}
