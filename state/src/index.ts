export * from './runtime-config';
export * from './auth-slice';
export * from './base-api';
export * from './cache-tags';
export * from './store';
export * from './parts-api';
export * from './styles';
export * from './remote-loader';
