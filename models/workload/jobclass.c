/* Job classes and defaults: the chain of groups a job's model, layout and checkpoint keys come from.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "jobclass.h"

#include <stdio.h>
#include <string.h>

#include "cfgget.h"

#define NOD DC_PARAM_NO_DEFAULT
#define NOD_X (DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE)
#define NOD_AUTO_X (DC_PARAM_NO_DEFAULT | DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE)
#define NOD_AUTO (DC_PARAM_NO_DEFAULT | DC_PARAM_AUTO)

/* The model, layout and checkpoint keys, under a prefix (a jobs entry, a
 * class, the defaults).  None has a schema default: a missing key falls
 * through to the next group of the chain (jobclass.h), and the built-in
 * default named in its doc applies only at the end. */
#define JOB_CLASS_KEY(P)                                                                                             \
    {P ".class", DC_PARAM_STRING, NOD, "", 0, NULL, 0, 0, NULL, "job class (a name in job_classes) for keys not given"}

#define JOB_MODEL_PARAMS(P)                                                                                          \
    {P ".params", DC_PARAM_FLOAT, NOD_X, "", 0, NULL, 0, 1e16, NULL, "model parameters"},                              \
    {P ".tokens", DC_PARAM_FLOAT, NOD_X, "", 0, NULL, 0, 1e18, NULL,                                                 \
     "training tokens (one job: its work with params; streams and traces: their work gives the tokens)"},          \
    {P ".flop_per_param_token", DC_PARAM_FLOAT, NOD_X, "FLOP", 0, NULL, 0, 1e3, NULL,                                \
     "FLOP per parameter per token (default 6: dense forward + backward)"},                                        \
    {P ".gpu_peak_tflops", DC_PARAM_FLOAT, NOD_X, "TFLOP/s", 0, NULL, 0, 1e6, NULL,                                  \
     "peak dense throughput of one GPU (default 989: H100 SXM bf16)"},                                             \
    {P ".mfu", DC_PARAM_FLOAT, NOD_X, "", 0, NULL, 0, 1, NULL,                                                       \
     "model FLOP utilisation (default 0.4); with a parallelism group the kernel efficiency of the compute part"},   \
    {P ".parallelism", DC_PARAM_GROUP, NOD, "", 0, NULL, 0, 0, NULL,                                                \
     "the job's step-time model (as the top-level parallelism group; needs a network)"},                           \
    {P ".parallelism.tensor", DC_PARAM_FLOAT, NOD_AUTO_X, "", 0, NULL, 0, 1e6, NULL,                                 \
     "tensor-parallel degree (default 1; auto: the smallest layout whose memory fits, see steptime.h)"},           \
    {P ".parallelism.pipeline", DC_PARAM_FLOAT, NOD_AUTO_X, "", 0, NULL, 0, 1e6, NULL,                               \
     "pipeline-parallel degree (default 1; auto: with tensor)"},                                                   \
    {P ".parallelism.data", DC_PARAM_FLOAT, NOD_AUTO_X, "", 0, NULL, 0, 1e9, NULL,                                   \
     "data-parallel degree (default and auto: the job's GPUs / (tensor x pipeline))"},                             \
    {P ".parallelism.global_batch_tokens", DC_PARAM_FLOAT, NOD_X, "tokens", 0, NULL, 0, 1e15, NULL,                  \
     "tokens per optimizer step (required somewhere in the chain)"},                                               \
    {P ".parallelism.seq_len", DC_PARAM_INT, NOD, "tokens", 0, NULL, 1, 1e9, NULL, "sequence length (default 4096)"}, \
    {P ".parallelism.micro_batch", DC_PARAM_INT, NOD, "sequences", 0, NULL, 1, 1e9, NULL,                            \
     "sequences per micro-batch (default 1)"},                                                                     \
    {P ".parallelism.virtual_stages", DC_PARAM_INT, NOD, "", 0, NULL, 1, 1e6, NULL,                                  \
     "model chunks per pipeline stage (default 1)"},                                                               \
    {P ".parallelism.layers", DC_PARAM_FLOAT, NOD_AUTO_X, "", 0, NULL, 0, 1e7, NULL,                                 \
     "transformer layers (default auto: hidden / 128)"},                                                           \
    {P ".parallelism.hidden", DC_PARAM_FLOAT, NOD_AUTO_X, "", 0, NULL, 0, 1e9, NULL,                                 \
     "hidden size (default auto: (128 params / 12)^(1/3))"},                                                       \
    {P ".parallelism.zero_stage", DC_PARAM_INT, NOD, "", 0, NULL, 0, 3, NULL, "ZeRO stage (default 1)"},             \
    {P ".parallelism.param_bytes", DC_PARAM_FLOAT, NOD_X, "B", 0, NULL, 0, 64, NULL, "bytes per parameter (default 2)"}, \
    {P ".parallelism.grad_bytes", DC_PARAM_FLOAT, NOD_X, "B", 0, NULL, 0, 64, NULL,                                  \
     "bytes per gradient element reduced (default 2)"},                                                            \
    {P ".parallelism.optimizer_bytes", DC_PARAM_FLOAT, NOD, "B", 0, NULL, 0, 1e3, NULL,                              \
     "optimizer bytes per parameter (default 12)"},                                                                \
    {P ".parallelism.activation_bytes", DC_PARAM_FLOAT, NOD_X, "B", 0, NULL, 0, 64, NULL,                            \
     "bytes per activation element sent (default 2)"},                                                             \
    {P ".parallelism.dp_overlap", DC_PARAM_FLOAT, NOD, "", 0, NULL, 0, 1, NULL,                                      \
     "data-parallel communication overlapped (default 0.8)"},                                                      \
    {P ".parallelism.tp_overlap", DC_PARAM_FLOAT, NOD, "", 0, NULL, 0, 1, NULL,                                      \
     "tensor-parallel communication overlapped (default 0)"},                                                      \
    {P ".parallelism.pp_overlap", DC_PARAM_FLOAT, NOD, "", 0, NULL, 0, 1, NULL, "pipeline sends overlapped (default 0)"}, \
    {P ".parallelism.recompute", DC_PARAM_STRING, NOD, "", 0, NULL, 0, 0, "selective|full",                          \
     "activation recomputation (default selective)"},                                                              \
    {P ".parallelism.activation_gb", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_AUTO, "GB", 0, NULL, 0, 1e6, NULL, \
     "activation memory per GPU (default auto)"},                                                                  \
    {P ".parallelism.offload", DC_PARAM_STRING, NOD, "", 0, NULL, 0, 0, "auto|none|optimizer",                       \
     "optimizer state in host DDR (default auto)"},                                                                \
    {P ".parallelism.offload_overlap", DC_PARAM_FLOAT, NOD, "", 0, NULL, 0, 1, NULL,                                 \
     "offload traffic overlapped (default 0)"},                                                                    \
    {P ".min_nodes", DC_PARAM_INT, NOD, "nodes", 0, NULL, 1, 1e7, NULL,                                           \
     "elastic: the fewest nodes it runs on (at most its size; absent: rigid), see job.min_nodes"},                 \
    {P ".min_gpus", DC_PARAM_INT, NOD, "GPUs", 0, NULL, 1, 1e9, NULL,                                              \
     "elastic, in GPUs (instead of min_nodes): the fewest GPUs it runs on (at most its size), see job.min_gpus"},   \
    {P ".reconfigure_s", DC_PARAM_FLOAT, NOD, "s", 0, NULL, 0, 1e7, NULL,                                          \
     "elastic: time to re-shard onto a new size (default 0)"},                                                     \
    {P ".dataset", DC_PARAM_BOOL, NOD, "", 0, NULL, 0, 0, NULL,                                                     \
     "with a step-time model, reads storage.dataset as its own streams sharing the tiers (default true)"},          \
    {P ".checkpoint_tier", DC_PARAM_STRING, NOD, "", 0, NULL, 0, 0, NULL,                                          \
     "storage tier the job's checkpoints are written to, as transfers sharing it (default: the checkpoint group's)"}, \
    {P ".checkpoint_gb", DC_PARAM_FLOAT, NOD_X, "GB", 0, NULL, 0, 1e9, NULL,                                         \
     "size of the job's checkpoint (default: params x checkpoint.bytes_per_param, else the group's size_gb)"}

/* The checkpoint keys a jobs entry has already (jobspec.c), for classes and defaults. */
#define JOB_CKPT_PARAMS(P)                                                                                           \
    {P ".checkpoint", DC_PARAM_BOOL, NOD, "", 0, NULL, 0, 0, NULL,                                                  \
     "checkpoint (default: training and fine-tuning, when a checkpoint group exists)"},                            \
    {P ".checkpoint_interval_s", DC_PARAM_FLOAT, NOD_AUTO, "s", 0, NULL, 1, 1e9, NULL,                                \
     "the jobs' interval (a number: fixed; auto: the checkpoint group's policy)"},                                 \
    {P ".checkpoint_write_s", DC_PARAM_FLOAT, NOD, "s", 0, NULL, 0, 1e7, NULL, "the jobs' checkpoint write time"}

const dc_param dc_jobclass_params[] = {
    {"job.class", DC_PARAM_STRING, NOD, "", 0, NULL, 0, 0, NULL,
     "job class (a name in job_classes) for the keys the job group does not give"},
    JOB_CLASS_KEY("jobs.[]"),
    JOB_MODEL_PARAMS("jobs.[]"),
    {"job_classes", DC_PARAM_LIST, NOD, "", 0, NULL, 0, 0, NULL,
     "named job classes: what jobs that name one train and how (model, layout, checkpoints)"},
    {"job_classes.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "the class's name (jobs name it in class; unique)"},
    JOB_MODEL_PARAMS("job_classes.[]"),
    JOB_CKPT_PARAMS("job_classes.[]"),
    {"defaults", DC_PARAM_GROUP, NOD, "", 0, NULL, 0, 0, NULL,
     "keys every job takes when neither it nor its class gives them"},
    JOB_CLASS_KEY("defaults"),
    JOB_MODEL_PARAMS("defaults"),
    JOB_CKPT_PARAMS("defaults"),
    {0},
};

static const config_setting_t *find_class(const dc_scenario *sc, const char *name)
{
    config_setting_t *list = dc_scenario_lookup(sc, "job_classes");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *c = config_setting_get_elem(list, (unsigned)i);
        const char *n = NULL;
        if (dc_cfg_lookup_string(c, "name", &n) && strcmp(n, name) == 0)
            return c;
    }
    return NULL;
}

int dc_job_chain_of(const dc_scenario *sc, const config_setting_t *own, dc_job_chain *out, dc_error *err)
{
    memset(out, 0, sizeof *out);
    out->class_name = "";
    const config_setting_t *dflt = dc_scenario_lookup(sc, "defaults");
    const char *cls = NULL;
    const config_setting_t *where = NULL;
    if (own && dc_cfg_lookup_string(own, "class", &cls))
        where = dc_cfg_member(own, "class");
    else if (dflt && dc_cfg_lookup_string(dflt, "class", &cls))
        where = dc_cfg_member(dflt, "class");
    out->at[0] = own;
    out->at[2] = dflt;
    if (cls) {
        out->at[1] = find_class(sc, cls);
        if (!out->at[1])
            return dc_scenario_error_at(sc, where, err, "no job class \"%s\" in job_classes", cls);
        out->class_name = cls;
    }
    return DC_OK;
}

dc_job_chain dc_job_chain_sub(const dc_job_chain *ch, const char *name, const config_setting_t *own_sub)
{
    dc_job_chain s = {.class_name = ch->class_name};
    for (int i = 0; i < 3; i++)
        s.at[i] = ch->at[i] ? dc_cfg_member(ch->at[i], name) : NULL;
    if (own_sub)
        s.at[0] = own_sub;
    return s;
}

const config_setting_t *dc_job_chain_setting(const dc_job_chain *ch, const char *key)
{
    for (int i = 0; i < 3; i++) {
        const config_setting_t *s = ch->at[i] ? dc_cfg_member(ch->at[i], key) : NULL;
        if (s)
            return s;
    }
    return NULL;
}

bool dc_job_chain_has(const dc_job_chain *ch, const char *key)
{
    return dc_job_chain_setting(ch, key) != NULL;
}

bool dc_job_chain_number_auto(const dc_job_chain *ch, const char *key, double *v, bool *is_auto)
{
    const config_setting_t *s = dc_job_chain_setting(ch, key);
    if (is_auto)
        *is_auto = false;
    if (!s)
        return false;
    if (dc_scenario_number(s, v))
        return true;
    if (config_setting_type(s) != CONFIG_TYPE_STRING)
        return false;
    if (is_auto) /* the schema lets only "auto" through */
        *is_auto = true;
    return true;
}

bool dc_job_chain_number(const dc_job_chain *ch, const char *key, double *v)
{
    bool is_auto;
    return dc_job_chain_number_auto(ch, key, v, &is_auto) && !is_auto;
}

bool dc_job_chain_string(const dc_job_chain *ch, const char *key, const char **v)
{
    const config_setting_t *s = dc_job_chain_setting(ch, key);
    if (!s || config_setting_type(s) != CONFIG_TYPE_STRING)
        return false;
    *v = config_setting_get_string(s);
    return true;
}

bool dc_job_chain_bool(const dc_job_chain *ch, const char *key, bool *v)
{
    const config_setting_t *s = dc_job_chain_setting(ch, key);
    if (!s || config_setting_type(s) != CONFIG_TYPE_BOOL)
        return false;
    *v = config_setting_get_bool(s);
    return true;
}

int dc_jobclass_check(const dc_scenario *sc, dc_error *err)
{
    config_setting_t *list = dc_scenario_lookup(sc, "job_classes");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *c = config_setting_get_elem(list, (unsigned)i);
        const char *n = "";
        dc_cfg_lookup_string(c, "name", &n);
        config_setting_t *at = dc_cfg_member(c, "name");
        if (!*n || strlen(n) > 31)
            return dc_scenario_error_at(sc, at, err, "a class name of 1 to 31 characters (got \"%s\")", n);
        for (int k = 0; k < i; k++) {
            const char *m = "";
            dc_cfg_lookup_string(config_setting_get_elem(list, (unsigned)k), "name", &m);
            if (strcmp(m, n) == 0)
                return dc_scenario_error_at(sc, at, err, "class \"%s\" is named twice", n);
        }
    }
    return DC_OK;
}
