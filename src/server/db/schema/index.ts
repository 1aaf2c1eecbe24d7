export * from './waitlist';
export * from './jobs';
export * from './auth';
export * from './accounts';
export * from './throttle';
export * from './teams';
export * from './audit';
export * from './loans';
