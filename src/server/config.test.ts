import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs embedded with nothing set', () => {
    const config = loadConfig({}, '/srv/coverly');
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/srv/coverly/data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.publicConfig.brandName).toBe('Coverly');
    expect(config.jobRetentionDays).toBe(7);
  });

  it('reads how many days a done job is kept', () => {
    expect(loadConfig({ JOB_RETENTION_DAYS: '30' }).jobRetentionDays).toBe(30);
  });

  it('reads brand and contact details for white-labelling', () => {
    const config = loadConfig({ BRAND_NAME: 'Acme Lending', CONTACT_EMAIL: 'hi@acme.test', CONTACT_PHONE: '+1 555 0100', CONTACT_CITY: 'Denver, CO' });
    expect(config.publicConfig).toEqual({
      brandName: 'Acme Lending',
      contactEmail: 'hi@acme.test',
      contactPhone: '+1 555 0100',
      contactPhoneHref: 'tel:+15550100',
      contactCity: 'Denver, CO',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', BRAND_NAME: '' }).port).toBe(3000);
  });

  it('stores files in S3 when S3_BUCKET is set, with the default credential chain when no key is given', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'coverly-files' }).s3).toEqual({
      bucket: 'coverly-files',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    expect(loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'https://minio.internal:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }).s3).toMatchObject(
      {
        endpoint: 'https://minio.internal:9000',
        accessKeyId: 'id',
      },
    );
  });

  it.each([
    [{ S3_ENDPOINT: 'https://minio.internal:9000' }, 'S3_BUCKET: must be set when S3_ENDPOINT is'],
    [{ S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_BUCKET: must be set when S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are'],
    [{ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }, 'S3_SECRET_ACCESS_KEY: must be set with the other half of the key'],
    [{ S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID: must be set with the other half of the key'],
  ])('stops on S3 settings that cannot work (%o)', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['true', true],
    ['0', false],
    ['127.0.0.1', '127.0.0.1'],
    [' 127.0.0.1 , 10.0.0.0/8,fd00::/8 ', '127.0.0.1,10.0.0.0/8,fd00::/8'],
  ])('reads TRUST_PROXY=%j as %j (every hop, none, or the proxies named)', (value, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(trustProxy);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://mail'],
    ['PUBLIC_URL', 'localhost:3000'],
    ['NOTIFY_EMAIL', 'not-an-address'],
    ['CONTACT_EMAIL', 'nope'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '127.0.0.1,proxy.internal'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['JOB_RETENTION_DAYS', '0'],
    ['JOB_RETENTION_DAYS', 'a week'],
  ])('stops on a bad %s and names it', (name, value) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toContain(name);
  });
});
