// shared/adapters/aws-endpoint.ts — how every AWS SDK client here is pointed: at AWS (region and
// credentials from the Lambda environment), or at a local stand-in (ElasticMQ, serverless-offline).
// Local stand-ins ignore signatures but the SDK insists on signing: static dummy keys, so a local
// run never goes looking for (or uses) a developer's real AWS credentials.
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/**
 * The local object store checks signatures (as S3 does), with the one account it knows: its
 * default (infra/local/object-store.ts).
 */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export function awsEndpointConfig(opts: { endpoint?: string | undefined; region?: string | undefined }) {
  const region = opts.region ?? (opts.endpoint ? 'us-east-1' : undefined);
  return {
    ...(region ? { region } : {}),
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  };
}
