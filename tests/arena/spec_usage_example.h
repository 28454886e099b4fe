/*
 * spec_usage_example.h - the specification's usage example as a function:
 * 0 on success, -ENOMEM if the tensor could not be allocated.
 */
#ifndef SPEC_USAGE_EXAMPLE_H
#define SPEC_USAGE_EXAMPLE_H

int spec_usage_example(void);

#endif /* SPEC_USAGE_EXAMPLE_H */
