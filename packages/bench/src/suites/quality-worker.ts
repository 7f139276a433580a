import { serveJobs } from '../worker-pool';
import { runQualityJob } from './quality-job';

serveJobs(runQualityJob);
