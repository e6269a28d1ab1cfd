use framework::Server;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = std::env::var("PORT").unwrap_or_else(|_| "3000".to_owned());
    Server::bind(("127.0.0.1", port.parse().unwrap_or(3000)))
        .await?
        .serve(own_workspace_app::app())
        .await
}
