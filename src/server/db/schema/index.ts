export * from './waitlist';
export * from './jobs';
