/**
 * Static display data of the landing page (seed §3: "static display data
 * only, not persisted"). Everything here is sample or marketing copy; the
 * numbers are the ones the seed states and must not change.
 */
import type { IconName } from '../../ui/icons';

export type TimelineStatus = 'complete' | 'current' | 'pending';

export interface TimelineStep {
  label: string;
  status: TimelineStatus;
}

export interface FeatureCard {
  icon: IconName;
  title: string;
  description: string;
}

export interface Testimonial {
  name: string;
  role: string;
  company: string;
  /** Shown as an initials avatar: the page loads no external images. */
  initials: string;
  content: string;
  /** 1–5 */
  rating: number;
}

export interface Counter {
  value: number;
  suffix: 'x' | '%';
  label: string;
}

export interface SampleComment {
  author: string;
  initials: string;
  role: 'Broker' | 'Borrower';
  time: string;
  text: string;
}

export interface PipelineLoan {
  borrower: string;
  property: string;
  amount: string;
  stage: string;
  tone: 'navy' | 'amber' | 'accent' | 'slate';
  /** 0–100 */
  progress: number;
  outstanding: string[];
}

export const counters: Counter[] = [
  { value: 2, suffix: 'x', label: 'Faster closings' },
  { value: 50, suffix: '%', label: 'Less back-and-forth' },
  { value: 100, suffix: '%', label: 'Document visibility' },
];

/** The dashboard mockup's overall progress, in percent. */
export const mockupProgress = 70;

export const timeline: TimelineStep[] = [
  { label: 'Borrower Invited', status: 'complete' },
  { label: 'Documents Uploaded', status: 'complete' },
  { label: 'Bank Statements', status: 'current' },
  { label: 'Appraisal Ordered', status: 'pending' },
  { label: 'Underwriting', status: 'pending' },
];

export const sampleComments: SampleComment[] = [
  {
    author: 'Dana Whitfield',
    initials: 'DW',
    role: 'Broker',
    time: '9:14 AM',
    text: 'Thanks for the leases! Could you upload the last two months of bank statements for reserves?',
  },
  {
    author: 'Marcus Lee',
    initials: 'ML',
    role: 'Borrower',
    time: '9:32 AM',
    text: 'Uploaded both just now. The April statement shows the rent deposits too.',
  },
];

export const pipeline: PipelineLoan[] = [
  {
    borrower: 'Oakline Properties LLC',
    property: 'Fourplex · Columbus, OH',
    amount: '$612,000',
    stage: 'Clear to close',
    tone: 'accent',
    progress: 95,
    outstanding: [],
  },
  {
    borrower: 'Priya Raman',
    property: 'Single-family · Tampa, FL',
    amount: '$284,500',
    stage: 'Underwriting',
    tone: 'navy',
    progress: 85,
    outstanding: ['Signed lease, unit B'],
  },
  {
    borrower: 'Harbor Lane Rentals LLC',
    property: 'Short-term rental · Gulf Shores, AL',
    amount: '$415,000',
    stage: 'Appraisal ordered',
    tone: 'navy',
    progress: 75,
    outstanding: ['Insurance quote', 'Rental income history'],
  },
  {
    borrower: 'Marcus Lee',
    property: 'Duplex · Raleigh, NC',
    amount: '$356,000',
    stage: 'Documents collecting',
    tone: 'amber',
    progress: 70,
    outstanding: ['Bank statements'],
  },
  {
    borrower: 'Elena Duarte',
    property: 'Condo · Phoenix, AZ',
    amount: '$229,000',
    stage: 'Borrower invited',
    tone: 'slate',
    progress: 10,
    outstanding: ['Government ID', 'Purchase contract', 'Credit authorization', 'Entity documents'],
  },
];

export const steps: FeatureCard[] = [
  {
    icon: 'userPlus',
    title: 'Invite borrowers and assistants',
    description: 'Send an e-mail invitation from the loan file. Assistants join your team; borrowers and co-borrowers see only the loans they are invited to.',
  },
  {
    icon: 'upload',
    title: 'Upload DSCR documents',
    description: 'Borrowers upload leases, rent rolls, bank statements and entity documents straight to their checklist, from a laptop or a phone.',
  },
  {
    icon: 'chat',
    title: 'Collaborate in threaded comments',
    description: 'Ask and answer questions on the loan itself, next to the document in question. Internal notes stay with your team.',
  },
  {
    icon: 'flag',
    title: 'Close loans faster',
    description: 'With every document tracked and every stage on the timeline, you spend less time chasing paperwork and more time closing.',
  },
];

export const benefits: FeatureCard[] = [
  {
    icon: 'clock',
    title: '2x faster closings',
    description: 'Borrowers always know what is next, so files move from application to clear to close without stalling.',
  },
  {
    icon: 'chat',
    title: '50% less back-and-forth',
    description: 'Questions and answers live on the loan, next to the document they are about, not scattered across e-mail and texts.',
  },
  {
    icon: 'eye',
    title: '100% document visibility',
    description: 'See what is requested, uploaded, approved or still outstanding on every open loan file.',
  },
  {
    icon: 'shield',
    title: 'Secure by default',
    description: 'Files are encrypted at rest and each person sees only their own loans, backed by SOC 2 and GDPR compliance.',
  },
];

export const features: FeatureCard[] = [
  {
    icon: 'timeline',
    title: 'Timeline-based deal tracker',
    description: 'Each loan moves through clear stages from application to funding. Every change is recorded, so everyone knows where the deal stands.',
  },
  {
    icon: 'checklist',
    title: 'Document checklist with status tags',
    description:
      'Start from a DSCR checklist for the loan purpose and property type, and tag each item Requested, Uploaded, In review, Approved or Needs revision.',
  },
  {
    icon: 'chat',
    title: 'Threaded real-time comments',
    description: 'Replies, @mentions and internal notes on every loan, updated live for everyone who is viewing it.',
  },
  {
    icon: 'lock',
    title: 'Secure, versioned storage',
    description: 'Every upload is encrypted at rest and every re-upload is kept as a new version, so a revised statement never replaces the record.',
  },
];

export const testimonials: Testimonial[] = [
  {
    name: 'Jennifer Walsh',
    role: 'Senior Mortgage Broker',
    company: 'Summit Ridge Lending',
    initials: 'JW',
    content:
      'Since we moved our DSCR files onto one shared timeline, we close 40% faster. Borrowers upload straight to the checklist, and I no longer dig through e-mail for the latest bank statement.',
    rating: 5,
  },
  {
    name: 'Robert Chen',
    role: 'Real Estate Investor',
    company: 'Chen Property Holdings',
    initials: 'RC',
    content:
      'I finance a few rentals a year. For the first time I could see exactly which documents my broker still needed and where my loan stood, without calling to ask.',
    rating: 5,
  },
];

export const pricingItems = [
  '14-day free trial',
  'No setup fees',
  '24/7 support',
  'Setup in under 5 minutes',
  'Cancel anytime',
  'Free for borrowers',
  'White-label options for teams',
];

export const trustPoints = ['Early access for 500+ brokers', '$2.5B+ in loans', 'SOC 2 and GDPR compliance'];
