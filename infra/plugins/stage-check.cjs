// infra/plugins/stage-check.cjs — before a deploy changes anything, the SSM parameters the stage
// names (infra/stage-settings.cjs: the token signing key, the gateway credentials) must exist as
// SecureStrings. The values are never read here (no decryption): a function reads them at cold
// start. Packaging needs no AWS account, so this runs on deploy only.
'use strict';

class StageCheck {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      'before:deploy:deploy': () => this.check(),
      'before:deploy:function:initialize': () => this.check(),
    };
  }

  async check() {
    const provider = this.serverless.getProvider('aws');
    // The configuration is resolved by now: the names stage-settings.cjs put in the environment.
    const env = this.serverless.service.provider.environment ?? {};
    const names = [env.JWT_SECRET_PARAMETER, env.HBASE_AUTHORIZATION_PARAMETER].filter(
      (n) => typeof n === 'string' && n !== '',
    );
    await checkParameters(provider.getStage(), names, (params) => provider.request('SSM', 'getParameter', params));
  }
}

/** Throws one error naming every missing or non-secret parameter and how to create it. */
async function checkParameters(stage, names, getParameter) {
  const problems = [];
  for (const name of names) {
    try {
      const res = await getParameter({ Name: name, WithDecryption: false });
      if (res?.Parameter?.Type !== 'SecureString')
        problems.push(`${name} is a ${res?.Parameter?.Type ?? 'parameter of unknown type'}, not a SecureString`);
    } catch (err) {
      const code = err?.providerErrorCodeExtension ?? err?.code ?? err?.name ?? '';
      if (
        !/ParameterNotFound|PARAMETER_NOT_FOUND/i.test(String(code)) &&
        !/ParameterNotFound/.test(String(err?.message))
      )
        throw err;
      problems.push(
        `${name} does not exist (create it: aws ssm put-parameter --type SecureString --name ${name} --value "…")`,
      );
    }
  }
  if (problems.length > 0) throw new Error(`Stage "${stage}" cannot be deployed: ${problems.join('; ')}`);
}

module.exports = StageCheck;
module.exports.checkParameters = checkParameters;
