export { ts } from 'ts-morph';
