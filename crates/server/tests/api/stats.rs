use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{error_of, json_of, png, Backend};
use crate::{api_tests, app};

fn count_of(list: &Value, label: &str) -> Option<String> {
    list.as_array()?.iter().find(|e| e[0] == label).and_then(|e| e[1].as_str().map(str::to_owned))
}

api_tests! {
    async fn admin_sees_text_counts_and_consistent_drill_downs(backend: Backend) {
        let app = app!(backend);
        let admin = app.signed_in("admin").await;
        let bob = app.signed_in("bob").await;
        let empty = json_of(app.get("/api/stats", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!((empty["totalGifs"].as_i64(), empty["averageViewsPerGif"].as_f64()), (Some(0), Some(0.0)));

        let first = app.upload_gif(&bob, "Cat one", "", &["cats", "funny"]).await;
        app.upload_gif(&bob, "Cat two", "", &["cats"]).await;
        json_of(app.upload(&bob, "p.png", png(300, 200), "A png", "", &["misc"]).await, StatusCode::CREATED).await;
        let id = first["id"].as_i64().unwrap_or_default();
        for _ in 0..2 {
            json_of(app.get(&format!("/api/gifs/dto/{id}"), Some(&bob)).await, StatusCode::OK).await;
        }

        let o = json_of(app.get("/api/stats", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!((o["totalGifs"].as_i64(), o["totalUsers"].as_i64(), o["totalTags"].as_i64(), o["emptyTagsCount"].as_i64()), (Some(3), Some(2), Some(3), Some(0)));
        assert_eq!((o["totalViews"].as_i64(), o["gifsUploadedToday"].as_i64(), o["gifsUploadedThisWeek"].as_i64()), (Some(2), Some(3), Some(3)));
        assert_eq!((o["averageTagsPerGif"].as_f64(), o["averageGifsPerUser"].as_f64(), o["averageViewsPerGif"].as_f64()), (Some(1.33), Some(1.5), Some(0.67)));
        assert!(o["totalContentSizeBytes"].as_i64().unwrap_or(0) > 0);
        assert!(o["totalContentSizeMB"].is_number());
        assert!(o["lastUpdated"].as_str().is_some_and(|s| s.ends_with('Z')));
        assert_eq!(o["mostUsedTags"][0], serde_json::json!(["cats", "2"]), "pairs carry text counts");
        assert_eq!(count_of(&o["topUsers"], "bob").as_deref(), Some("3"));
        assert_eq!(o["mostViewedGifs"][0], serde_json::json!(["Cat one", "2"]));

        let d = json_of(app.get("/api/stats/detailed", Some(&admin)).await, StatusCode::OK).await;
        let days = d["dailyUploadsLastWeek"].as_array().cloned().unwrap_or_default();
        assert_eq!(days.len(), 7);
        assert_eq!(days[6][1], "3", "today is last");
        assert!(days.windows(2).all(|w| w[0][0].as_str() < w[1][0].as_str()), "oldest first");
        assert_eq!(count_of(&d["userActivityStats"], "casual").as_deref(), Some("1"));
        assert_eq!(count_of(&d["userActivityStats"], "inactive").as_deref(), Some("1"));
        let buckets = d["sizeBuckets"].as_array().cloned().unwrap_or_default();
        assert_eq!(buckets.iter().map(|b| b[0].as_str().unwrap_or_default().to_owned()).collect::<Vec<_>>(), ["0-100KB", "100KB-500KB", "500KB-1MB", "1MB-5MB", "5MB-10MB"]);
        assert_eq!(buckets[0][1], "3");
        assert_eq!(count_of(&d["contentTypeStats"], "image/gif").as_deref(), Some("2"));
        assert_eq!(count_of(&d["contentTypeStats"], "image/png").as_deref(), Some("1"));

        // Drill-downs number what the aggregates say.
        for bucket in &buckets {
            let label = bucket[0].as_str().unwrap_or_default();
            let rows = json_of(app.get(&format!("/api/stats/detailed/size/{label}"), Some(&admin)).await, StatusCode::OK).await;
            assert_eq!(rows.as_array().map(|r| r.len().to_string()), bucket[1].as_str().map(str::to_owned), "{label}");
        }
        let cats = json_of(app.get("/api/stats/detailed/tag/cats", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!(cats.as_array().map(Vec::len), Some(2));
        assert_eq!((cats[0]["title"].as_str(), cats[0]["views"].as_i64()), (Some("Cat one"), Some(2)));
        assert!(cats[0]["sizeMB"].is_number() && cats[0]["contentType"] == "image/gif");
        let casual = json_of(app.get("/api/stats/detailed/activity/casual", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!((casual[0]["username"].as_str(), casual[0]["gifCount"].as_i64()), (Some("bob"), Some(3)));
        let pngs = json_of(app.get("/api/stats/detailed/content-type?type=image%2Fpng", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!(pngs[0]["title"], "A png");
        let message = error_of(app.get("/api/stats/detailed/size/huge", Some(&admin)).await, StatusCode::BAD_REQUEST, "validation").await;
        assert!(message.contains("0-100KB") && message.contains("5MB-10MB"), "{message}");
        let message = error_of(app.get("/api/stats/detailed/activity/lazy", Some(&admin)).await, StatusCode::BAD_REQUEST, "validation").await;
        assert!(message.contains("inactive") && message.contains("power"), "{message}");

        for path in ["/api/stats", "/api/stats/detailed", "/api/stats/detailed/size/0-100KB", "/api/stats/detailed/tag/cats", "/api/stats/detailed/activity/casual", "/api/stats/detailed/content-type?type=image%2Fgif"] {
            error_of(app.get(path, Some(&bob)).await, StatusCode::FORBIDDEN, "forbidden").await;
            error_of(app.get(path, None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        }
    }
}
