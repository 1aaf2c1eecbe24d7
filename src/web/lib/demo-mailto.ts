const demoSubject = 'Personal demo request';
const demoBody = ['Hello,', '', 'I would like to book a personal demo for my team.', '', 'Name:', 'Company:', 'Phone:', 'Best time to reach me:', ''].join(
  '\n',
);

/** A pre-filled e-mail asking for a demo; the brand name stays out of it so white-labelled teams can reuse it. */
export function demoMailto(contactEmail: string) {
  return `mailto:${contactEmail}?subject=${encodeURIComponent(demoSubject)}&body=${encodeURIComponent(demoBody)}`;
}
