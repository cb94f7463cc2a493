// test/unit/stage-settings.test.ts — the per-stage settings (infra/stage-settings.cjs) and the
// deploy-time check of the SSM parameters they name (infra/plugins/stage-check.cjs). The
// packaged template itself is checked in test/integration/serverless-package.test.ts.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { stageSettings } = require('../../infra/stage-settings.cjs') as { stageSettings: (stage: string, params: Record<string, unknown>, env?: Record<string, string>) => any };
const { checkParameters } = require('../../infra/plugins/stage-check.cjs') as {
  checkParameters: (stage: string, names: string[], get: (p: { Name: string }) => Promise<unknown>) => Promise<void>;
};

/** params.default of serverless.yml, for stage "dev". */
const defaults = {
  hbaseRestUrl: 'https://hbase-rest.internal:8443',
  hbaseNamespace: 'weibo',
  jwtSecretParameter: '/weibo/dev/jwt-secret',
  jwtPreviousSecretParameter: '/weibo/dev/jwt-secret-previous',
  hbaseAuthorizationParameter: '',
  secretsMaxAgeSeconds: 300,
  vpcSubnetIds: '',
  vpcSecurityGroupIds: '',
  workerMaxConcurrency: 5,
  jobReservedConcurrency: 1,
  apiThrottleRate: 100,
  apiThrottleBurst: 200,
  celebrityFollowers: 10000,
  inactiveAfterSeconds: 2592000,
  inboxCap: 800,
  outboxCap: 200,
  backfillLimit: 200,
  settleSeconds: 60,
  jobRowsPerStep: 500,
  regenStuckSeconds: 600,
  schedulesEnabled: true,
  logLevel: 'INFO',
};

describe('stage settings', () => {
  it('derive the environment of a deployed stage: parameter names, never values; the gateway credentials to every HBase caller', () => {
    const s = stageSettings('staging', { ...defaults, hbaseAuthorizationParameter: '/weibo/staging/hbase-auth' });
    expect(s.environment).toMatchObject({ HBASE_REST_URL: defaults.hbaseRestUrl, JWT_SECRET_PARAMETER: '/weibo/dev/jwt-secret', HBASE_AUTHORIZATION_PARAMETER: '/weibo/staging/hbase-auth' });
    expect(s.environment).not.toHaveProperty('JWT_SECRET');
    const ssm = (role: unknown[]) => JSON.stringify(role.filter((st: any) => st.Action.includes('ssm:GetParameter')));
    for (const fn of ['api', 'fanout', 'trimInboxes', 'repairRelations', 'repairPostCounts', 'regenerationSweep']) expect(ssm(s.roles[fn]), fn).toContain('/weibo/staging/hbase-auth');
    expect(ssm(s.roles.deadLetterReport)).toBe('[]');
    expect(ssm(s.roles.fanout)).not.toContain('jwt-secret');
    expect(s.vpc).toEqual({});
  });

  it('name every problem of a stage at once, and the stage', () => {
    expect(() => stageSettings('prod', { ...defaults, hbaseRestUrl: '', jwtSecretParameter: '', workerMaxConcurrency: 1, logLevel: 'LOUD' })).toThrow(
      /^Stage "prod" is not configured: hbaseRestUrl is not set.*; jwtSecretParameter is not set.*; workerMaxConcurrency must be an integer from 2 to 1000 \(got "1"\); logLevel must be one of DEBUG, INFO, WARN, ERROR.*params\.prod/,
    );
    expect(() => stageSettings('dev', { ...defaults, hbaseRestUrl: 'https://user:pw@gw.internal' })).toThrow('must not carry credentials');
    expect(() => stageSettings('dev', { ...defaults, vpcSecurityGroupIds: 'sg-0123456789abcdef0' })).toThrow('go together');
    expect(() => stageSettings('dev', { ...defaults, vpcSubnetIds: 'subnet-1', vpcSecurityGroupIds: 'sg-0123456789abcdef0' })).toThrow('vpcSubnetIds must be subnet ids');
  });

  it('let only the local stage use plain http, the environment and a plain secret', () => {
    const local = stageSettings('local', { ...defaults, hbaseRestUrl: 'http://127.0.0.1:18080', jwtSecretParameter: '' }, { JWT_SECRET: 'k'.repeat(40) });
    expect(local.environment).toMatchObject({ HBASE_REST_URL: 'http://127.0.0.1:18080', JWT_SECRET: 'k'.repeat(40) });
    expect(local.environment).not.toHaveProperty('JWT_SECRET_PARAMETER');
    // Cheaper password hashes only under serverless-offline; a deployed stage never sets it.
    expect(local.environment.PASSWORD_SCRYPT_LOG2N).toBe('15');
    expect(stageSettings('prod', defaults).environment).not.toHaveProperty('PASSWORD_SCRYPT_LOG2N');
    for (const name of ['test', 'dev', 'Local']) expect(() => stageSettings(name, { ...defaults, hbaseRestUrl: 'http://127.0.0.1:18080' }), name).toThrow('must be https://');
  });
});

describe('the deploy-time parameter check', () => {
  const ssm = (params: Record<string, string>) => async ({ Name }: { Name: string }) => {
    if (!(Name in params)) throw Object.assign(new Error(`ParameterNotFound: ${Name}`), { code: 'ParameterNotFound' });
    return { Parameter: { Name, Type: params[Name] } };
  };

  it('passes when every named parameter is a SecureString', async () => {
    await checkParameters('prod', ['/weibo/prod/jwt-secret'], ssm({ '/weibo/prod/jwt-secret': 'SecureString' }));
  });

  it('names each missing or plain-text parameter, the stage, and how to create it', async () => {
    await expect(checkParameters('prod', ['/weibo/prod/jwt-secret', '/weibo/prod/hbase-auth'], ssm({ '/weibo/prod/hbase-auth': 'String' }))).rejects.toThrow(
      'Stage "prod" cannot be deployed: /weibo/prod/jwt-secret does not exist (create it: aws ssm put-parameter --type SecureString --name /weibo/prod/jwt-secret --value "…"); /weibo/prod/hbase-auth is a String, not a SecureString',
    );
  });

  it('lets any other failure (no credentials, access denied) through as it is', async () => {
    const denied = async () => {
      throw Object.assign(new Error('AccessDenied'), { code: 'AccessDeniedException' });
    };
    await expect(checkParameters('prod', ['/weibo/prod/jwt-secret'], denied)).rejects.toThrow('AccessDenied');
  });
});
