import { ITEM_STATUS_LABELS, type ItemStatus } from '../../../../shared/domain/checklist-status';
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
