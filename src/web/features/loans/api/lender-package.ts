/** The loan's lender package (decision 015): a plain download link, so the browser streams the zip to a file as it arrives. */
export function lenderPackageUrl(loanId: string): string {
  return `/api/loans/${encodeURIComponent(loanId)}/package`;
}
