//! Request and response bodies, one module per resource. The frontend's types in
//! `frontend/src/api/generated/` are generated from these with ts-rs (`cargo xtask gen-types`); a test
//! fails when they are stale.

mod audit;
mod auth;
mod bulk;
mod collections;
mod commands;
mod errors;
mod gifs;
mod integrations;
mod join;
mod keys;
mod make;
mod members;
mod meta;
mod reports;
mod settings;
mod share;
mod stats;
mod tags;
mod upload;

use ts_rs::TS;

pub use audit::{AuditActorDto, AuditEventDto, PagedAuditEvents};
pub use auth::{GoogleLoginRequest, IdentityDto, LoginRequest, RegisterRequest, TokenResponse};
pub use bulk::{BulkRequest, BulkResponse, BulkResult, BulkStatus};
pub use collections::{CollectionDto, CollectionRequest, OrderRequest, ShareRequest, Visibility};
pub use commands::{
    ChatCommandAnswer, ChatCommandJson, ResponseType, SlackBlock, SlackText, SlashCommandForm, SlashCommandReply,
    ZulipReply,
};
pub use errors::{ApiErrorBody, ErrorCode};
pub use gifs::{
    DuplicateGroupsDto, FavouriteStateDto, GifDto, GifLinkDto, HiddenDto, PagedGifs, Rating, RenditionDto,
    UpdateGifRequest,
};
pub use integrations::{CreateIntegrationRequest, IntegrationDto, UpdateIntegrationRequest};
pub use join::{role_name, CreateInviteRequest, CreatedInviteDto, InviteDto, RegistrationPolicyDto};
pub use keys::{ApiKeyDto, CreateApiKeyRequest, CreatedApiKeyDto};
pub use make::{MakeCaptionDto, MakeCropDto, MakeErrorDto, MakeForm, MakeRecipeDto, MakeStartedDto, MakeStatusDto};
pub use members::{
    MemberDto, PagedMembers, PasswordResetLinkDto, QuotaDto, ResetPasswordRequest, UpdateMemberRequest, UsageDto,
};
pub use meta::{HealthDto, ProbeDto, PublicConfig};
pub use reports::{
    CreateReportRequest, PagedReports, ReportDto, ReportedGifDto, ResolveReportRequest, VisibilityRequest,
};
pub use settings::{ChangePasswordRequest, ProfileDto, UpdateProfileRequest};
pub use share::OembedResponse;
pub use stats::{ActivityLevel, DetailedStats, GifStatRow, OverviewStats, SizeRange, UserStatRow};
pub use tags::{DeletedTagsResponse, SuggestionDto, TagDto, TagRef};
pub use upload::{FromUrlRequest, GifUploadData, UploadForm, UploadedGifDto};

/// Every exported type, for the generator and the freshness test.
#[macro_export]
macro_rules! for_each_dto {
    ($m:ident) => {
        $m!(
            ErrorCode,
            ApiErrorBody,
            LoginRequest,
            GoogleLoginRequest,
            IdentityDto,
            TokenResponse,
            RegisterRequest,
            ProfileDto,
            UpdateProfileRequest,
            ChangePasswordRequest,
            PublicConfig,
            HealthDto,
            ProbeDto,
            TagRef,
            TagDto,
            GifDto,
            HiddenDto,
            CreateReportRequest,
            ReportedGifDto,
            ReportDto,
            PagedReports,
            ResolveReportRequest,
            VisibilityRequest,
            FavouriteStateDto,
            GifLinkDto,
            RenditionDto,
            CreateApiKeyRequest,
            CreatedApiKeyDto,
            ApiKeyDto,
            CreateIntegrationRequest,
            IntegrationDto,
            UpdateIntegrationRequest,
            RegistrationPolicyDto,
            CreateInviteRequest,
            InviteDto,
            CreatedInviteDto,
            UploadedGifDto,
            DuplicateGroupsDto,
            PagedGifs,
            GifUploadData,
            FromUrlRequest,
            OembedResponse,
            UpdateGifRequest,
            DeletedTagsResponse,
            SuggestionDto,
            OverviewStats,
            DetailedStats,
            GifStatRow,
            UserStatRow,
            Visibility,
            Rating,
            CollectionDto,
            CollectionRequest,
            ShareRequest,
            OrderRequest,
            BulkRequest,
            BulkStatus,
            BulkResult,
            BulkResponse,
            AuditActorDto,
            AuditEventDto,
            PagedAuditEvents,
            MemberDto,
            PagedMembers,
            UpdateMemberRequest,
            MakeCropDto,
            MakeCaptionDto,
            MakeRecipeDto,
            MakeStartedDto,
            MakeErrorDto,
            MakeStatusDto,
            QuotaDto,
            PasswordResetLinkDto,
            ResetPasswordRequest,
            UsageDto
        );
    };
}

/// `(file name, contents)` of every generated TypeScript file.
pub fn typescript_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    macro_rules! collect {
        ($($t:ident),*) => {
            $(
                files.push((
                    format!("{}.ts", <$t as TS>::name()),
                    <$t as TS>::export_to_string().unwrap_or_else(|e| format!("// export failed: {e}\n")),
                ));
            )*
        };
    }
    for_each_dto!(collect);
    files
}

/// A UTC time as the API writes it (ISO-8601, seconds).
pub fn iso(at: chrono::NaiveDateTime) -> String {
    at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
