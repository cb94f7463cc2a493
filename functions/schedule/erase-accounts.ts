// functions/schedule/erase-accounts.ts — rate(1 day): erase the accounts that left 30 days ago and were not restored, and free the handles erased 30 days ago (注销).
import { erasureDependencies } from '../../shared/wiring/erasure.js';
import { eraseAccountsJob } from '../../shared/use-cases/jobs/erase-accounts.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('erase-accounts', () => eraseAccountsJob(erasureDependencies()));
