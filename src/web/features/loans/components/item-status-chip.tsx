import {
  BORROWER_ITEM_STATE_LABELS,
  ITEM_STATUS_LABELS,
  borrowerItemState,
  type BorrowerItemState,
  type ItemStatus,
} from '../../../../shared/domain/checklist-status';
import { Chip } from '../../../ui/chip';

const TONES: Record<ItemStatus, 'navy' | 'green' | 'slate' | 'red'> = {
  requested: 'slate',
  uploaded: 'navy',
  in_review: 'navy',
  approved: 'green',
  needs_revision: 'red',
  waived: 'slate',
  not_applicable: 'slate',
  expired: 'red',
};

/** An item's status tag; a borrower's "not applicable" reads as pending until the team confirms it. */
export function ItemStatusChip({ status, pendingConfirmation = false }: { status: ItemStatus; pendingConfirmation?: boolean }) {
  return <Chip tone={TONES[status]}>{pendingConfirmation ? 'Not applicable (to confirm)' : ITEM_STATUS_LABELS[status]}</Chip>;
}

const BORROWER_TONES: Record<BorrowerItemState, 'navy' | 'green' | 'slate' | 'red'> = {
  needed: 'slate',
  sent: 'navy',
  new_version: 'red',
  done: 'green',
};

/** The same item as a borrower reads it: one of four states (`borrowerItemState`); the reason for a new version is shown beside it. */
export function BorrowerStatusChip({ status, notApplicableConfirmed }: { status: ItemStatus; notApplicableConfirmed: boolean }) {
  const state = borrowerItemState(status, notApplicableConfirmed);
  return <Chip tone={BORROWER_TONES[state]}>{BORROWER_ITEM_STATE_LABELS[state]}</Chip>;
}
