import { serveJobs } from '../worker-pool';
import { runSpeedJob } from './speed-job';

serveJobs(runSpeedJob);
