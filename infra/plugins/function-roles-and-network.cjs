// infra/plugins/function-roles-and-network.cjs — one IAM role per function, holding exactly the
// statements that function declares (`roleStatements`, built per stage by
// infra/stage-settings.cjs) plus writing to its own log group. serverless's default is one role
// for all functions, so every HTTP function could do what only the worker or a job needs; this
// replaces that role. A function without `roleStatements` fails the package: no function falls
// back to a shared role.
// And the network: when the stage names subnets and security groups (`custom.network`, from the
// stage params), every function runs in them, its role with the network-interface policy. (Not
// provider.vpc: serverless insists it be complete, and most stages have no VPC at all.)
'use strict';

const DEFAULT_ROLE = 'IamRoleLambdaExecution';
const VPC_POLICY = {
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole'],
  ],
};

class FunctionRoles {
  constructor(serverless) {
    this.serverless = serverless;
    serverless.configSchemaHandler?.defineFunctionProperties('aws', {
      properties: { roleStatements: { type: 'array', items: { type: 'object' } } },
    });
    this.hooks = { 'before:package:finalize': () => this.apply() };
  }

  apply() {
    const service = this.serverless.service;
    const provider = this.serverless.getProvider('aws');
    const resources = service.provider.compiledCloudFormationTemplate.Resources;
    const network = service.custom?.network ?? {};
    const inVpc = Boolean(network.subnetIds?.length && network.securityGroupIds?.length);
    for (const name of service.getAllFunctions()) {
      const fn = service.getFunction(name);
      if (!Array.isArray(fn.roleStatements)) {
        throw new Error(
          `function-roles: function "${name}" declares no roleStatements; every function gets a role of its own`,
        );
      }
      const fnId = provider.naming.getLambdaLogicalId(name);
      const roleId = `${provider.naming.getNormalizedFunctionName(name)}Role`;
      const logGroup = provider.naming.getLogGroupName(fn.name);
      resources[roleId] = {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              { Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] },
            ],
          },
          // The network interfaces a function in a VPC needs, only when it is in one.
          ManagedPolicyArns: inVpc ? [VPC_POLICY] : [],
          Policies: [
            {
              PolicyName: `${fn.name}-policy`,
              PolicyDocument: {
                Version: '2012-10-17',
                Statement: [
                  {
                    Effect: 'Allow',
                    Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
                    Resource: [
                      {
                        'Fn::Join': [
                          '',
                          [
                            'arn:',
                            { Ref: 'AWS::Partition' },
                            ':logs:',
                            { Ref: 'AWS::Region' },
                            ':',
                            { Ref: 'AWS::AccountId' },
                            `:log-group:${logGroup}:*`,
                          ],
                        ],
                      },
                    ],
                  },
                  ...fn.roleStatements,
                ],
              },
            },
          ],
        },
      };
      const fnResource = resources[fnId];
      if (inVpc)
        fnResource.Properties.VpcConfig = { SubnetIds: network.subnetIds, SecurityGroupIds: network.securityGroupIds };
      fnResource.Properties.Role = { 'Fn::GetAtt': [roleId, 'Arn'] };
      // The Fn::GetAtt on the role already orders it first; the shared role is gone.
      const dependsOn = [fnResource.DependsOn ?? []].flat().filter((d) => d !== DEFAULT_ROLE);
      if (dependsOn.length > 0) fnResource.DependsOn = dependsOn;
      else delete fnResource.DependsOn;
    }
    // Event source mappings wait for the role that lets the function read the queue.
    for (const resource of Object.values(resources)) {
      if (resource.Type !== 'AWS::Lambda::EventSourceMapping') continue;
      const target = resource.Properties?.FunctionName?.['Fn::GetAtt']?.[0];
      const fnName = service.getAllFunctions().find((n) => provider.naming.getLambdaLogicalId(n) === target);
      if (!fnName) continue;
      const roleId = `${provider.naming.getNormalizedFunctionName(fnName)}Role`;
      const deps = [resource.DependsOn ?? []].flat().filter((d) => d !== DEFAULT_ROLE);
      resource.DependsOn = [...new Set([...deps, roleId])];
    }
    // No function uses the shared role any more: leave none behind to be attached later.
    delete resources[DEFAULT_ROLE];
    const leftover = JSON.stringify(service.provider.compiledCloudFormationTemplate).includes(`"${DEFAULT_ROLE}"`);
    if (leftover) throw new Error(`function-roles: something still refers to ${DEFAULT_ROLE}`);
  }
}

module.exports = FunctionRoles;
