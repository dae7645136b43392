import { isolationSuite } from './isolation';

isolationSuite(4, 30);
