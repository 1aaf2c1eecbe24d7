import { useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AppNotFound } from '../../ui/app-not-found';
import { LoadFailed } from '../../ui/load-failed';
import { PageLoading } from '../../ui/page-loading';
import { useLoan } from './api/get-loan';
import { BorrowerLoanPage } from './borrower/borrower-loan-page';
import { TeamLoanPage } from './team-loan-page';

/**
 * /app/loans/:loanId: the server decides who sees what (GET /api/loans/:loanId
 * answers the team's file or a borrower's projection, and 404 to anyone
 * else), and this page shows the one it got.
 */
export default function LoanPage() {
  const { loanId = '' } = useParams();
  const loan = useLoan(loanId);
  if (loan.isPending) return <LoadingLoan />;
  if (loan.isError) {
    if (loan.error instanceof ApiError && loan.error.status === 404) return <AppNotFound />;
    return <LoadFailed message="The loan could not be loaded." onRetry={() => void loan.refetch()} />;
  }
  return loan.data.viewer === 'borrower' ? <BorrowerLoanPage loan={loan.data} /> : <TeamLoanPage loan={loan.data} />;
}

function LoadingLoan() {
  useDocumentTitle('Loan');
  return <PageLoading />;
}
