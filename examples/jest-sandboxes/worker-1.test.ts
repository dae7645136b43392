import { isolationSuite } from './isolation';

isolationSuite(1, 30);
